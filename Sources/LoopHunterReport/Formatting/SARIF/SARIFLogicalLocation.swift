/// A named program element: a function (with its module), or an object of the view tree.
struct SARIFLogicalLocation: Codable, Sendable, Equatable {
    let name: String
    /// `module!function` for functions.
    var fullyQualifiedName: String? = nil
    /// `function`, `module`, or `object` (a view: none of SARIF's predefined kinds fits).
    let kind: String
}
