/// ANSI terminal styles, applied only when colours are on. Kept per formatter instance (no global
/// switch), so one process can render with and without colour at the same time.
struct ANSIStyle: Sendable {
    let enabled: Bool

    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }
    func red(_ s: String) -> String { wrap(s, "31") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func green(_ s: String) -> String { wrap(s, "32") }
    func cyan(_ s: String) -> String { wrap(s, "36") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled && !s.isEmpty ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}
