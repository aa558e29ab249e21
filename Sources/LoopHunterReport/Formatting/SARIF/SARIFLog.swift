/// The top level of a SARIF 2.1.0 file (`sarifLog`).
struct SARIFLog: Codable, Sendable, Equatable {
    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    let runs: [SARIFRun]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }
}
