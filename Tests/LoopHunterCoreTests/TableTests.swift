import Foundation
import LoopHunterCore
import Testing
import LoopHunterTestSupport

/// The lock-free (object, hook) table, driven directly from many threads.
@Suite("lock-free table")
struct TableTests {
    /// A table mapped for one test (never unmapped: tests are short-lived processes).
    final class Table: @unchecked Sendable {
        var raw = lh_table()
        init(capacity: UInt64) throws {
            let result = lh_table_init(&raw, capacity)
            try #require(result == 0, "lh_table_init failed: \(result)")
        }
        func slot(_ object: UInt, _ hook: UInt32) -> UnsafeMutablePointer<lh_slot>? {
            lh_table_slot(&raw, UnsafeRawPointer(bitPattern: object), hook)
        }
        var used: UInt64 { lh_table_used(&raw) }
        var dropped: UInt64 { lh_table_dropped(&raw) }
    }

    /// Object "addresses" that look like heap pointers: 16-byte aligned, nearby.
    static func object(_ i: Int) -> UInt { 0x5555_0000_0000 + UInt(i) * 48 }

    @Test("counts are exact per key and reset when the epoch changes")
    func epochs() throws {
        let table = try Table(capacity: 1024)
        let slot = try #require(table.slot(Self.object(1), 0))
        var rolled = false
        var from: UInt64 = 0
        for expected in 1...250 as ClosedRange<UInt32> {
            #expect(lh_slot_count(slot, 7, &rolled, &from) == expected)
        }
        #expect(lh_slot_count(slot, 8, &rolled, &from) == 1)
        #expect(rolled && lh_count_of(from) == 250 && lh_epoch_of(from) == 7)
        #expect(table.slot(Self.object(1), 0) == slot, "the same key finds the same slot")
        #expect(table.slot(Self.object(1), 1) != slot, "another hook is another key")
    }

    @Test("many threads: exact counts for single-threaded keys, no lost or duplicate inserts")
    func concurrent() throws {
        let threads = 8, privateKeys = 400, sharedKeys = 300, rounds = 50
        let table = try Table(capacity: 16384)
        // Every thread inserts the same shared keys and records which slot it got for each.
        let sharedSlots = DisjointBuffer<UInt>(count: threads * sharedKeys, initial: 0)
        let failures = DisjointBuffer<Int>(count: threads, initial: 0)

        DispatchQueue.concurrentPerform(iterations: threads) { t in
            var rolled = false
            var from: UInt64 = 0
            for round in 0..<rounds {
                let epoch = UInt64(t * rounds + round + 1) // unique per thread and round
                for k in 0..<privateKeys {
                    let key = Self.object(10_000 + t * privateKeys + k)
                    guard let slot = table.slot(key, 0) else { failures[t] += 1; continue }
                    var last: UInt32 = 0
                    for _ in 0...(k % 5) { last = lh_slot_count(slot, epoch, &rolled, &from) }
                    if last != UInt32(k % 5 + 1) { failures[t] += 1 }
                }
                for k in 0..<sharedKeys {
                    let slot = table.slot(Self.object(k), 3)
                    let address = UInt(bitPattern: slot)
                    if round == 0 { sharedSlots[t * sharedKeys + k] = address }
                    else if sharedSlots[t * sharedKeys + k] != address { failures[t] += 1 }
                    if let slot { _ = lh_slot_count(slot, epoch, &rolled, &from) }
                }
            }
        }
        #expect((0..<threads).map { failures[$0] }.allSatisfy { $0 == 0 }, "miscounts per thread")
        for k in 0..<sharedKeys {
            let first = sharedSlots[k]
            #expect(first != 0)
            #expect((1..<threads).allSatisfy { sharedSlots[$0 * sharedKeys + k] == first },
                    "all threads got one slot for shared key \(k)")
        }
        #expect(table.used == UInt64(threads * privateKeys + sharedKeys), "one slot per distinct key")
        #expect(table.dropped == 0)
    }

    @Test("a full table drops calls, never blocks, never corrupts")
    func full() throws {
        let table = try Table(capacity: 64)
        var slots: [UInt: UnsafeMutablePointer<lh_slot>] = [:]
        var dropped = 0
        for i in 0..<1000 {
            if let slot = table.slot(Self.object(i), 0) { slots[Self.object(i)] = slot } else { dropped += 1 }
        }
        #expect(slots.count == 64 && table.used == 64)
        #expect(dropped == 1000 - 64 && table.dropped == UInt64(dropped))
        #expect(Set(slots.values.map { UInt(bitPattern: $0) }).count == 64, "no slot handed to two keys")
        for (object, slot) in slots { #expect(table.slot(object, 0) == slot, "inserted keys stay findable") }
        lh_table_clear(&table.raw)
        #expect(table.used == 0 && table.slot(Self.object(5000), 0) != nil, "clear empties the table")
    }
}
