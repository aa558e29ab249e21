import Foundation
import LoopHunterTestSupport

/// Results of runs made on several threads.
final class IndexedRuns: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [HostRun?]

    init(count: Int) { runs = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ run: HostRun) {
        lock.lock()
        runs[index] = run
        lock.unlock()
    }

    var all: [HostRun] {
        lock.lock()
        defer { lock.unlock() }
        return runs.compactMap { $0 }
    }
}
