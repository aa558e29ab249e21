/// Why a report directory as a whole could not be read.
public enum ReportDirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(path: String)
    case notADirectory(path: String)
    case symlinkLoop(path: String)
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            return "\(path): no such directory; give the LOOPHUNTER_DIR the program ran with (default /tmp/loophunter-<uid>)"
        case .notADirectory(let path):
            return "\(path): not a directory; give the directory that holds the report files"
        case .symlinkLoop(let path):
            return "\(path): a symlink loop; give the real directory"
        case .unreadable(let path, let reason):
            return "\(path): cannot be read (\(reason)); check its permissions"
        }
    }
}
