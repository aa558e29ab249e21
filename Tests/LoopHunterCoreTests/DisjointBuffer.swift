/// A fixed buffer whose elements are written by concurrent threads, each thread only its own
/// indices (so there is no race); read after the threads are joined.
final class DisjointBuffer<Element>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element>
    let count: Int

    init(count: Int, initial: Element) {
        self.count = count
        storage = .allocate(capacity: count)
        storage.initialize(repeating: initial, count: count)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    subscript(index: Int) -> Element {
        get { storage[index] }
        set { storage[index] = newValue }
    }
}
