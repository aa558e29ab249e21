/// Wording shared by the formats, so a finding reads the same everywhere.
enum FindingText {
    /// `scenario_loop.c:42 in loop_toolbar_layout (toykit-demo)`, or nil without an app frame.
    static func location(_ frame: SymbolizedFrame?) -> String? {
        guard let frame else { return nil }
        let function = frame.primary?.function ?? frame.displayName
        if let where_ = frame.primary?.shortLocation {
            return "\(where_) in \(function) (\(frame.moduleName ?? "?"))"
        }
        return "\(function) (\(frame.moduleName ?? "?"))"
    }

    /// The view of a finding: its object's path, and for a toolkit warning whose text names no
    /// widget, that this one was being laid out when the toolkit warned:
    /// `GtkWindow 'main' > LhWarnBox 'warn-box' (being laid out when Gtk warned)`.
    static func view(_ f: Finding) -> String {
        guard let warning = f.warning, warning.objectIsLayoutInProgress else { return f.object.path }
        return f.object.path + " (being laid out when \(warning.domain ?? "the toolkit") warned)"
    }

    /// `1 report (+4 suppressed)`
    static func reports(_ f: Finding) -> String {
        var text = "\(f.reportCount) report\(f.reportCount == 1 ? "" : "s")"
        if f.suppressed > 0 { text += " (+\(f.suppressed) suppressed)" }
        return text
    }

    /// `pid 6070 toykit-demo, pid 6071 toykit-demo`
    static func processes(_ f: Finding) -> String {
        f.processes.map { "pid \($0.pid) \($0.executable.split(separator: "/").last.map(String.init) ?? $0.executable)" }
            .joined(separator: ", ")
    }

    /// `Toolbar 'toolbar' (100)`
    static func members(_ f: Finding) -> String {
        f.members.map { member in
            "\(ObjectRef(type: member.type, name: member.name, path: "").label) (\(member.count))"
        }.joined(separator: ", ")
    }

    /// `▁▃█` for the layout calls of the history.
    static func sparkline(_ values: [UInt64]) -> String {
        let bars = Array("▁▂▃▄▅▆▇█")
        guard let top = values.max(), top > 0 else { return String(repeating: "▁", count: values.count) }
        return String(values.map { bars[Int((Double($0) / Double(top)) * Double(bars.count - 1))] })
    }

    /// The function and location of a frame for a stack listing.
    static func frameLine(_ frame: SymbolizedFrame) -> (function: String, location: String, module: String) {
        (frame.displayName, frame.primary?.shortLocation ?? "", frame.moduleName ?? "?")
    }

    /// `no loops found`, or `2 findings: 1 layout-storm, 1 layout-streak`; when not everything was
    /// seen (``Analysis/unseen``) and nothing was found, `nothing seen` or `no findings in what was
    /// seen`: never a clean result for a run LoopHunter did not see.
    static func headline(_ a: Analysis) -> String {
        guard !a.findings.isEmpty else {
            let suppressed = a.suppressed.map { $0.isEmpty ? "" : " (\($0.count) suppressed)" } ?? ""
            if a.sawEverything { return "no loops found" + suppressed }
            return (a.processes.isEmpty && a.reportCount == 0 ? "nothing seen" : "no findings in what was seen") + suppressed
        }
        var kinds: [(ReportKind, Int)] = []
        for f in a.findings {
            if let i = kinds.firstIndex(where: { $0.0 == f.kind }) { kinds[i].1 += 1 } else { kinds.append((f.kind, 1)) }
        }
        let n = a.findings.count
        return "\(n) finding\(n == 1 ? "" : "s"): " + kinds.map { "\($0.1) \($0.0.rawValue)" }.joined(separator: ", ")
    }
}

extension FindingText {
    /// `2 findings suppressed`, or nil when none was.
    static func suppressedHeading(_ a: Analysis) -> String? {
        guard let suppressed = a.suppressed, !suppressed.isEmpty else { return nil }
        return "\(suppressed.count) finding\(suppressed.count == 1 ? "" : "s") suppressed"
    }

    /// One line per suppressed finding: what it is, and the rule that suppressed it.
    static func suppressedLine(_ s: SuppressedFinding) -> String {
        "\(s.finding.kind.rawValue) \(s.finding.title) [\(s.finding.id)]: \(suppressedRule(s))"
    }

    /// `by kind:layout-streak (lh.supp:3, the splash screen)`.
    static func suppressedRule(_ s: SuppressedFinding) -> String {
        "by \(s.rule) (\(s.location)\(s.reason.map { ", \($0)" } ?? ""))"
    }
}
