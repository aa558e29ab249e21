/// Renders an analysis in one output format. Formatters are pure: the same analysis gives the same
/// text byte for byte (nothing depends on the clock or the machine), which golden tests rely on.
public protocol FindingsFormatter: Sendable {
    func format(_ analysis: Analysis) -> String
}
