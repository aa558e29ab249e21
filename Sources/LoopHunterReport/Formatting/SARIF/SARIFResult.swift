/// One finding as a SARIF result.
struct SARIFResult: Codable, Sendable, Equatable {
    let ruleId: String
    let ruleIndex: Int
    /// `error`, `warning` or `note`, from the finding's severity.
    let level: String
    let message: SARIFMessage
    /// The first app frame with a source file (a physical location), else the app (or innermost)
    /// frame's function and module (a logical location).
    let locations: [SARIFLocation]
    /// `loophunterFinding/v1` → the finding id, stable across runs and machines.
    let partialFingerprints: [String: String]
    /// The representative report's whole stack.
    let stacks: [SARIFStack]
    /// The other objects of the loop; absent when there is none.
    let relatedLocations: [SARIFLocation]?
    let properties: SARIFResultProperties
    /// Set for a finding a `--suppress` rule matched (SARIF viewers show it as suppressed).
    var suppressions: [SARIFSuppression]? = nil
}
