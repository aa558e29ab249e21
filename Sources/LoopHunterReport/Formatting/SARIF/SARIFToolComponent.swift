/// LoopHunter as a SARIF tool component: its name, version, and the rules (one per kind of
/// finding the run reports).
struct SARIFToolComponent: Codable, Sendable, Equatable {
    let name: String
    let version: String
    let semanticVersion: String
    let rules: [SARIFRule]
}
