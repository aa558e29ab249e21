import Foundation
import LoopHunterReport

/// A claimed report, read and checked: its bytes as the preload wrote them and their meaning.
public struct LoadedReport: Sendable {
    public let entry: SpoolEntry
    /// The file's bytes (the JSON format sends them unchanged).
    public let data: Data
    public let report: Report
}
