import Foundation

/// One `key:value` of a suppression rule. Values of `type`, `name` and `function` are shell-style
/// patterns (`*`, `?`, `[...]`, as fnmatch(3)); `finding` and `kind` are exact.
public enum SuppressionCondition: Sendable, Equatable {
    /// A finding's id: the 16 hex digits `--print-suppressions`, JSON (`id`) and SARIF
    /// (`partialFingerprints`) give; stable across runs and machines.
    case finding(String)
    /// A report kind, e.g. `layout-streak`.
    case kind(String)
    /// The type of any object of the finding (the representative's or another seen in the group).
    case type(String)
    /// The name of any object of the finding.
    case name(String)
    /// The function of any of the app's own frames in the finding's stack or its cause's stacks
    /// and callbacks.
    case function(String)

    /// The keys a rule may use, for messages.
    public static let keys = ["finding", "kind", "type", "name", "function"]

    /// Parses `key:value`; nil for an unknown key or an empty value.
    public init?(_ text: Substring) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let key = text[..<colon], value = String(text[text.index(after: colon)...])
        guard !value.isEmpty else { return nil }
        switch key {
        case "finding": self = .finding(value.lowercased())
        case "kind": self = .kind(value)
        case "type": self = .type(value)
        case "name": self = .name(value)
        case "function": self = .function(value)
        default: return nil
        }
    }

    public func matches(_ finding: Finding) -> Bool {
        switch self {
        case .finding(let id): return finding.id == id
        case .kind(let kind): return finding.kind.rawValue == kind
        case .type(let pattern):
            return ([finding.object] + finding.objects).contains { Self.glob(pattern, $0.type) }
        case .name(let pattern):
            return ([finding.object] + finding.objects).contains { $0.name.map { Self.glob(pattern, $0) } ?? false }
        case .function(let pattern):
            // The finding's stack, and its cause's: the request's stack and its Python or
            // JavaScript functions, and for a deferred cause each callback of the chain and where
            // it was added.
            let cause = finding.cause
            let frames = finding.stack + (cause?.requestStack ?? []) + (cause?.requestScript ?? [])
                + (cause?.addedBy.flatMap { $0.stack + ($0.callback.map { [$0] } ?? []) } ?? [])
            return frames.contains { frame in
                frame.origin == .app && frame.symbols.contains { $0.function.map { Self.glob(pattern, $0) } ?? false }
            }
        }
    }

    /// `key:value`, as written.
    public var text: String {
        switch self {
        case .finding(let v): return "finding:\(v)"
        case .kind(let v): return "kind:\(v)"
        case .type(let v): return "type:\(v)"
        case .name(let v): return "name:\(v)"
        case .function(let v): return "function:\(v)"
        }
    }

    private static func glob(_ pattern: String, _ text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}
