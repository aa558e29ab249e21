/// Why a report directory or its spool cannot be used. Each message names the path and says what
/// to do about it.
public enum SpoolError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(path: String)
    case notADirectory(path: String)
    case foreignOwner(path: String, owner: UInt32, me: UInt32)
    case writableByOthers(path: String, mode: UInt32)
    case symlink(path: String)
    case unusable(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            return "\(path): no such directory; give the report directory the program wrote to (its LOOPHUNTER_DIR)"
        case .notADirectory(let path):
            return "\(path): not a directory; give the directory that holds the report files"
        case .foreignOwner(let path, let owner, let me):
            return "\(path) is owned by user \(owner), not by you (user \(me)): refusing to ship reports that are not yours. "
                + "Ship as that user, or move the reports into a directory you own (mkdir -m 700)"
        case .writableByOthers(let path, let mode):
            return "\(path) is writable by other users (mode \(String(mode & 0o7777, radix: 8))): anyone could plant a file "
                + "there and have it shipped with your token. Refusing; fix it with: chmod 700 \(path)"
        case .symlink(let path):
            return "\(path) is a symbolic link where the spool keeps a directory: refusing to follow it; remove it and run again"
        case .unusable(let path, let reason):
            return "\(path): \(reason)"
        }
    }
}
