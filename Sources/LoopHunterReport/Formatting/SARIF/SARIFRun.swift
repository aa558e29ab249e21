/// One run of LoopHunter: the tool with its rules, how the run went, and one result per finding.
struct SARIFRun: Codable, Sendable, Equatable {
    let tool: SARIFTool
    let invocations: [SARIFInvocation]
    /// `SRCROOT` → the source root's `file://` URI (with a trailing slash), when one was given.
    let originalUriBaseIds: [String: SARIFArtifactLocation]?
    /// Always present, empty when there is no finding (SARIF: "no results", not "not run").
    let results: [SARIFResult]
}
