/// The top level of `--format json`: the analysis with its schema name and version.
struct AnalysisDocument: Encodable {
    let schema = "loophunter/analysis"
    let version = "1.0"
    let analysis: Analysis

    enum CodingKeys: String, CodingKey { case schema, version, analysis }
}
