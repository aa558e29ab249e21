import Foundation

/// Tells which files appear in a directory: with inotify (a report is renamed into place, a
/// summary too: IN_MOVED_TO; IN_CLOSE_WRITE covers other writers), falling back to listing the
/// directory when inotify is unavailable. Names starting with "." (temporaries) are never given.
final class DirectoryWatcher {
    private let directory: String
    private var seen: Set<String>
    private var fd: Int32 = -1

    /// Starts watching; files already there are not reported as new.
    init(directory: String) {
        self.directory = directory
        seen = Set(Self.list(directory))
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        if fd >= 0 && inotify_add_watch(fd, directory, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE)) < 0 {
            close(fd)
            fd = -1
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    var existing: [String] { seen.sorted() }
    var usesInotify: Bool { fd >= 0 }

    /// Waits up to `timeoutMs` for new files and returns them, oldest event first.
    func next(timeoutMs: Int32) -> [String] {
        if fd >= 0 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, timeoutMs) > 0 { drain() }
        } else {
            usleep(UInt32(timeoutMs) * 1000)
        }
        // Listing after an event (or on each tick without inotify) also catches files whose
        // events were coalesced or lost to an overflow.
        let now = Self.list(directory)
        let fresh = now.filter { !seen.contains($0) }
        seen.formUnion(fresh)
        return fresh
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while read(fd, &buffer, buffer.count) > 0 {}
    }

    private static func list(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }
            .sorted()
    }
}
