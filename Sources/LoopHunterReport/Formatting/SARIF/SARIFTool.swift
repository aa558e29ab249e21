/// The analysis tool of a run.
struct SARIFTool: Codable, Sendable, Equatable {
    let driver: SARIFToolComponent
}
