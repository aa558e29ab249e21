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
        // The common case, a file the preload wrote (schema first): decode it once, in full, and
        // check its version after. Anything unusual takes the careful path below, which explains.
        if let file = decodeDirectly(data) { return file }
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

    /// One decoding pass for a well-formed file of a supported version; nil otherwise.
    private static func decodeDirectly(_ data: Data) -> ReportFile? {
        switch sniffSchema(data) {
        case reportSchema:
            // Reports are what a directory holds thousands of: the tape first (several times
            // faster than JSONDecoder), JSONDecoder for whatever the tape does not take.
            guard let report = decodeReportFromTape(data) ?? (try? JSONDecoder().decode(Report.self, from: data)),
                  SchemaVersion(report.version)?.major == SchemaVersion.current.major else { return nil }
            return .report(report)
        case summarySchema:
            guard let summary = try? JSONDecoder().decode(Summary.self, from: data),
                  SchemaVersion(summary.version)?.major == SchemaVersion.current.major else { return nil }
            return .summary(summary)
        default:
            return nil
        }
    }

    /// The report in `data` through ``JSONTape``: the value `JSONDecoder` would give, or nil when
    /// the file is not plain JSON exactly as the model expects it (then `JSONDecoder` decides).
    static func decodeReportFromTape(_ data: Data) -> Report? {
        data.withUnsafeBytes { bytes in
            guard let tape = JSONTape(parsing: bytes) else { return nil }
            return tape.tokens.withUnsafeBufferPointer { tokens in
                try? Report(tape: JSONTapeValue(bytes: bytes, tokens: tokens, index: 0))
            }
        }
    }

    /// The value of a `"schema"` key among the first bytes, without parsing the whole file.
    static func sniffSchema(_ data: Data) -> String? {
        let head = [UInt8](data.prefix(256))
        let key = Array("\"schema\"".utf8)
        guard let at = (0...max(0, head.count - key.count)).first(where: { head[$0..<min($0 + key.count, head.count)].elementsEqual(key) })
        else { return nil }
        var i = at + key.count
        func skipSpace() { while i < head.count, head[i] == 0x20 || head[i] == 0x0a || head[i] == 0x0d || head[i] == 0x09 { i += 1 } }
        skipSpace()
        guard i < head.count, head[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        skipSpace()
        guard i < head.count, head[i] == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        guard let end = head[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: head[start..<end], as: UTF8.self)
    }

    /// Reads and decodes the file at `url`.
    public static func load(_ url: URL) throws(ReportFileError) -> ReportFile {
        try load(path: url.path)
    }

    /// Reads and decodes the file at `path`.
    static func load(path: String) throws(ReportFileError) -> ReportFile {
        // Ask the system first: its reason ("Permission denied") is clearer than Foundation's.
        if access(path, R_OK) != 0 {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: [.mappedIfSafe])
        } catch {
            throw .unreadable(path: path, reason: ReportDirectoryReader.reason(error))
        }
        return try decode(data, path: path)
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
