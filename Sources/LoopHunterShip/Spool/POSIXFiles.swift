import Foundation

/// The few file-system calls the spool makes, with errno turned into words.
enum POSIXFiles {
    /// `strerror` text for an errno value.
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The names in a directory, without "." and "..", in no particular order; empty when it
    /// cannot be listed (it was removed, or never existed).
    static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `lstat(2)`: the link itself, never what it points to. Nil when it does not exist.
    static func lstatus(_ path: String) -> stat? {
        var st = stat()
        return lstat(path, &st) == 0 ? st : nil
    }

    static func isRegular(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFREG }
    static func isDirectory(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFDIR }

    /// Creates `path` 0700, or checks the one that is there: a real directory (not a symlink),
    /// ours, closed to others (tightened to 0700 when others may read it).
    static func ensurePrivateDirectory(_ path: String) throws(SpoolError) {
        if mkdir(path, 0o700) == 0 { return }
        let code = errno
        guard code == EEXIST else { throw .unusable(path: path, reason: "cannot create it (\(reason(code)))") }
        guard let st = lstatus(path) else { throw .unusable(path: path, reason: "vanished while being checked") }
        if (st.st_mode & S_IFMT) == S_IFLNK { throw .symlink(path: path) }
        guard isDirectory(st) else { throw .notADirectory(path: path) }
        guard st.st_uid == geteuid() else { throw .foreignOwner(path: path, owner: st.st_uid, me: geteuid()) }
        if st.st_mode & 0o077 != 0 && chmod(path, 0o700) != 0 {
            throw .writableByOthers(path: path, mode: UInt32(st.st_mode))
        }
    }

    /// Writes `data` to `path` as a new owner-only file, complete or not at all: a temporary
    /// `.<name>.tmp` beside it (O_EXCL|O_NOFOLLOW, 0600), flushed, then renamed into place.
    static func writeAtomically(_ data: Data, to path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written && synced && rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
