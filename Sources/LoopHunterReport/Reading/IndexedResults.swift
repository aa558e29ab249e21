import Foundation

/// Results of a parallel loop, one slot per index: each iteration writes only its own slot, and
/// the slots are read after the loop has joined (`DispatchQueue.concurrentPerform`).
///
/// The slots are one buffer allocated up front and never resized. (An `Array` would not do:
/// `withUnsafeMutableBufferPointer` moves the array out of the property while its closure runs,
/// so two threads writing their own slots at once race on the array itself.)
final class IndexedResults<Element>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Element?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }

    subscript(index: Int) -> Element? {
        get { slots[index] }
        set { slots[index] = newValue }
    }
}
