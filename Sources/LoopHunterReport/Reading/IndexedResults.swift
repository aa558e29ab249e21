import Foundation

/// Results of a parallel loop, one slot per index: each iteration writes only its own slot, and
/// the slots are read after the loop has joined (`DispatchQueue.concurrentPerform`).
final class IndexedResults<Element>: @unchecked Sendable {
    private var slots: [Element?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    subscript(index: Int) -> Element? {
        get { slots.withUnsafeBufferPointer { $0[index] } }
        set { slots.withUnsafeMutableBufferPointer { $0[index] = newValue } }
    }
}
