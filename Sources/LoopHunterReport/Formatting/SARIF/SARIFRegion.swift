/// A line (1-based) and, when known, a column (1-based) in a file.
struct SARIFRegion: Codable, Sendable, Equatable {
    let startLine: Int
    let startColumn: Int?
}
