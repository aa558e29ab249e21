import Foundation

/// One file of a report directory: a breach report or a process summary.
public enum ReportFile: Sendable, Equatable {
    case report(Report)
    case summary(Summary)

    /// The `schema` field of a report file.
    public static let reportSchema = "loophunter/report"
    /// The `schema` field of a summary file.
    public static let summarySchema = "loophunter/summary"
    /// Reports are a few KiB; a file beyond this is not one of ours.
    public static let maximumBytes = 16 * 1024 * 1024

    /// Decodes `data`, read from `path` (used in error messages). The schema and its major version
    /// are checked before anything else, so a future file is refused with a clear message rather
    /// than a decoding error.
    public static func decode(_ data: Data, path: String) throws(ReportFileError) -> ReportFile {
        guard !data.isEmpty else { throw .empty(path: path) }
        guard data.count <= maximumBytes else {
            throw .tooLarge(path: path, bytes: data.count, limit: maximumBytes)
        }
        let header: ReportFileHeader
        do {
            header = try JSONDecoder().decode(ReportFileHeader.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw .notJSON(path: path, detail: Self.describe(error))
            }
            throw .notLoopHunter(path: path)
        } catch {
            throw .notJSON(path: path, detail: String(describing: error))
        }
        guard header.schema == reportSchema || header.schema == summarySchema else {
            throw .notLoopHunter(path: path)
        }
        guard let version = SchemaVersion(header.version),
              version.major == SchemaVersion.current.major else {
            throw .unsupportedVersion(path: path, found: header.version, supported: .current)
        }
        do {
            if header.schema == reportSchema {
                return .report(try JSONDecoder().decode(Report.self, from: data))
            }
            return .summary(try JSONDecoder().decode(Summary.self, from: data))
        } catch {
            throw .invalid(path: path, detail: Self.describe(error))
        }
    }

    /// Reads and decodes the file at `url`.
    public static func load(_ url: URL) throws(ReportFileError) -> ReportFile {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: [.mappedIfSafe])
        } catch {
            throw .unreadable(path: url.path, reason: ReportDirectoryReader.reason(error))
        }
        return try decode(data, path: url.path)
    }

    /// "field `object.type`: expected String" rather than Foundation's long debug text.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context.codingPath)
            return "missing field `\(parent.isEmpty ? key.stringValue : parent + "." + key.stringValue)`"
        case .typeMismatch(let type, let context):
            return "field `\(path(context.codingPath))`: expected \(type)"
        case .valueNotFound(let type, let context):
            return "field `\(path(context.codingPath))`: null where \(type) is required"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? (context.underlyingError.map { String(describing: $0) } ?? context.debugDescription)
                : "field `\(path(context.codingPath))`: \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}
