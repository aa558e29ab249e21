/// Why a file in a report directory could not be read. Each message names the file and says what
/// to do, so a person can act on it.
public enum ReportFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is empty (a writer that was killed never leaves one under a report name, so this
    /// is a foreign or damaged file).
    case empty(path: String)
    /// Not JSON, or JSON cut short.
    case notJSON(path: String, detail: String)
    /// JSON, but not a LoopHunter report or summary.
    case notLoopHunter(path: String)
    /// A LoopHunter file with a version this build does not read.
    case unsupportedVersion(path: String, found: String, supported: SchemaVersion)
    /// The right schema and version, but a field is missing or has the wrong type.
    case invalid(path: String, detail: String)
    /// Larger than the reader accepts.
    case tooLarge(path: String, bytes: Int, limit: Int)
    /// The file system refused it: permissions, a broken or looping symlink.
    case unreadable(path: String, reason: String)

    public var path: String {
        switch self {
        case .empty(let path), .notJSON(let path, _), .notLoopHunter(let path),
             .unsupportedVersion(let path, _, _), .invalid(let path, _), .tooLarge(let path, _, _),
             .unreadable(let path, _):
            return path
        }
    }

    public var description: String {
        switch self {
        case .empty(let path):
            return "\(path): empty file, skipped (not written by LoopHunter, or damaged)"
        case .notJSON(let path, let detail):
            return "\(path): not valid JSON (\(detail)), skipped"
        case .notLoopHunter(let path):
            return "\(path): JSON but not a LoopHunter report or summary (no \"schema\" field), skipped"
        case .unsupportedVersion(let path, let found, let supported):
            return "\(path): report schema version \(found) is not supported by this loophunter "
                + "(it reads \(supported.major).x); use a loophunter release that matches the preload that wrote it"
        case .invalid(let path, let detail):
            return "\(path): not a valid LoopHunter file: \(detail), skipped"
        case .tooLarge(let path, let bytes, let limit):
            return "\(path): \(bytes) bytes is larger than the \(limit)-byte limit for one report, skipped"
        case .unreadable(let path, let reason):
            return "\(path): cannot be read (\(reason)), skipped"
        }
    }
}
