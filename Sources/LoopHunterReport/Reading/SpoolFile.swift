import Foundation

/// A spool file, `spool-<pid>-<tag>.lhspool`: what a process wrote after it put itself in a
/// seccomp sandbox (a browser's content process), where it may no longer create files. The
/// preload opened it before the sandbox took effect and appends each report, and the summary at
/// exit, as one framed record with a single `write(2)`:
///
/// ```
/// LHSPOOL1 <payload length, 16 hex> <FNV-1a 64 of the payload, 16 hex><spaces to 63 bytes>\n
/// <payload: one report or summary, JSON>\n
/// ```
///
/// A record whose header, length or hash does not check (cut short by a full disk, or damaged) is
/// counted as damaged and reading resumes at the next header: such a record is never read as a
/// report.
public struct SpoolFile: Sendable {
    /// The file name suffix of spool files.
    public static let suffix = ".lhspool"
    /// The fixed length of a record's header line, newline included.
    static let headerLength = 64
    private static let magic = Array("LHSPOOL1 ".utf8)
    /// Spools hold up to LOOPHUNTER_MAX_REPORTS reports of a few hundred KiB at most.
    public static let maximumBytes = 512 * 1024 * 1024

    /// The payloads of the records that checked, in file order.
    public let records: [Data]
    /// Records that did not check.
    public let damaged: Int

    /// Whether `name` is a spool file's name.
    public static func isSpoolName(_ name: String) -> Bool {
        name.hasPrefix("spool-") && name.hasSuffix(suffix)
    }

    /// Splits `data` into records.
    public init(_ data: Data) {
        var records: [Data] = []
        var damaged = 0
        let bytes = [UInt8](data)
        var at = 0
        while at < bytes.count {
            if let (payload, next) = Self.record(bytes, at: at) {
                records.append(Data(bytes[payload]))
                at = next
                continue
            }
            damaged += 1
            // Resume at the next header that starts a line.
            guard let next = Self.nextHeader(bytes, after: at) else { break }
            at = next
        }
        self.records = records
        self.damaged = damaged
    }

    /// The record whose header starts at `at`: its payload's range and where the next one starts.
    private static func record(_ bytes: [UInt8], at: Int) -> (Range<Int>, Int)? {
        guard at + headerLength <= bytes.count, bytes[at..<at + magic.count].elementsEqual(magic),
              bytes[at + headerLength - 1] == 0x0a,
              let length = hex(bytes, from: at + magic.count, count: 16),
              bytes[at + magic.count + 16] == 0x20,
              let hash = hex(bytes, from: at + magic.count + 17, count: 16) else { return nil }
        let start = at + headerLength
        guard length < UInt64(bytes.count), start + Int(length) + 1 <= bytes.count,
              bytes[start + Int(length)] == 0x0a else { return nil }
        let payload = start..<start + Int(length)
        guard fnv1a(bytes[payload]) == hash else { return nil }
        return (payload, payload.upperBound + 1)
    }

    private static func nextHeader(_ bytes: [UInt8], after at: Int) -> Int? {
        var i = at + 1
        while i + magic.count <= bytes.count {
            if bytes[i - 1] == 0x0a && bytes[i..<i + magic.count].elementsEqual(magic) { return i }
            i += 1
        }
        return nil
    }

    private static func hex(_ bytes: [UInt8], from: Int, count: Int) -> UInt64? {
        var value: UInt64 = 0
        for b in bytes[from..<from + count] {
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    static func fnv1a(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }
}
