import Foundation

/// The whole analysis as JSON (schema `loophunter/analysis` 1.1), keys sorted, for scripts.
public struct JSONFormatter: FindingsFormatter {
    public init() {}

    public func format(_ analysis: Analysis) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(AnalysisDocument(analysis: analysis)) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
