import Foundation

/// The checks a report directory passes before anything in it is shipped: it exists, is a
/// directory, belongs to the user running loophunter, and no one else can write to it (the same
/// rule the preload applies before writing there).
public enum DirectoryGuard {
    public static func checkReportDirectory(_ path: String) throws(SpoolError) {
        var st = stat()
        if stat(path, &st) != 0 {
            let code = errno
            switch code {
            case ENOENT: throw .missing(path: path)
            case ENOTDIR: throw .notADirectory(path: path)
            default: throw .unusable(path: path, reason: "cannot be read (\(POSIXFiles.reason(code))); check its permissions")
            }
        }
        guard POSIXFiles.isDirectory(st) else { throw .notADirectory(path: path) }
        guard st.st_uid == geteuid() else { throw .foreignOwner(path: path, owner: st.st_uid, me: geteuid()) }
        guard st.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw .writableByOthers(path: path, mode: UInt32(st.st_mode))
        }
        guard access(path, R_OK | W_OK | X_OK) == 0 else {
            throw .unusable(path: path, reason: "cannot be read and written (\(POSIXFiles.reason(errno))); the shipper keeps its spool inside it")
        }
    }
}
