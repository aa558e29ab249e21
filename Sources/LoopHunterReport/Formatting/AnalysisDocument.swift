/// The top level of `--format json`: the analysis with its schema name and version (1.1 added
/// each finding's `alloc` and each process's allocation totals; 1.2 the `suppressed` findings of
/// `--suppress`; 1.3 each layout finding's `cause`; 1.4 the cause's `requestScript` and `scriptLanguage`;
/// minor versions only add fields).
struct AnalysisDocument: Encodable {
    let schema = "loophunter/analysis"
    let version = "1.4"
    let analysis: Analysis

    enum CodingKeys: String, CodingKey { case schema, version, analysis }
}
