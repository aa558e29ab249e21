import Foundation

/// An open lock file held with `flock(2)`. The kernel drops the lock when the process dies, even
/// by `kill -9`, which is how a shipper tells a dead shipper's in-flight reports from a live one's.
/// The descriptor is close-on-exec, so a program started by `loophunter run` never inherits it.
public final class FileLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Opens (creating it 0600 when `create`) and locks `path` exclusively. Returns nil when
    /// another process holds it and `wait` is false; throws when it cannot be opened.
    public static func acquire(_ path: String, create: Bool, wait: Bool) throws(SpoolError) -> FileLock? {
        let flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0)
        let fd = open(path, flags, 0o600)
        guard fd >= 0 else {
            throw .unusable(path: path, reason: "cannot open the lock file (\(POSIXFiles.reason(errno)))")
        }
        var result: Int32
        repeat {
            result = flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB))
        } while result != 0 && errno == EINTR
        if result != 0 {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw .unusable(path: path, reason: "cannot lock it (\(POSIXFiles.reason(code)))")
        }
        return FileLock(descriptor: fd)
    }
}
