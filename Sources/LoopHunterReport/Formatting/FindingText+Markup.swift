/// Wording shared by the markup formats (Markdown, HTML, SARIF, JUnit), built on the text format's
/// phrases so a finding reads the same everywhere. Nothing here escapes: every format passes these
/// strings through its own escaper.
extension FindingText {
    /// `✖` for errors, `▲` otherwise (as the text format marks them).
    static func mark(_ severity: Severity) -> String {
        severity == .error ? "✖" : "▲"
    }

    /// `5 reports, 2 processes`
    static func totals(_ a: Analysis) -> String {
        "\(a.reportCount) report\(a.reportCount == 1 ? "" : "s"), "
            + "\(a.processes.count) process\(a.processes.count == 1 ? "" : "es")"
    }

    /// `scenario_loop.c:42 in loop_toolbar_layout (toykit-demo)`; without an app frame, the
    /// innermost frame; without a stack, `unknown code`.
    static func place(_ f: Finding) -> String {
        location(f.appFrame) ?? location(f.stack.first) ?? "unknown code"
    }

    /// `2 reports (+4 suppressed), pid 4101 toykit-demo, thread toykit-demo, <first> .. <last>`
    static func seen(_ f: Finding) -> String {
        "\(reports(f)), \(processes(f)), thread \(f.threads.joined(separator: ", ")), \(f.firstSeen)"
            + (f.lastSeen != f.firstSeen ? " .. \(f.lastSeen)" : "")
    }

    /// `layout calls in the last 2 iterations: ▁█ (max 201)`, or nil without a history.
    static func history(_ f: Finding) -> String? {
        guard !f.history.isEmpty else { return nil }
        let calls = f.history.map(\.layoutCalls)
        return "layout calls in the last \(calls.count) \(f.historyUnit)\(calls.count == 1 ? "" : "s"): "
            + sparkline(calls) + " (max \(calls.max() ?? 0))"
    }

    /// The first report file, and how many more there are.
    static func reportFiles(_ f: Finding) -> (first: String, more: Int) {
        (f.reportPaths.first ?? "", max(0, f.reportPaths.count - 1))
    }

    /// `3 files skipped`
    static func skipped(_ a: Analysis) -> String {
        "\(a.problems.count) file\(a.problems.count == 1 ? "" : "s") skipped"
    }

    /// `pid 4101 toykit-demo: 6 iterations, 9998 layouts, 5 breaches (1 written, ...)`, then, with
    /// allocation accounting, `; 72.1 MiB allocated in 1404 calls, 1.2 KiB live at exit`; without
    /// the configuration messages (the same wording as the text format's process list).
    static func processLine(_ p: ProcessOverview) -> String {
        let name = p.executable.split(separator: "/").last.map(String.init) ?? p.executable
        var text = "pid \(p.pid) \(name)" + stateText(p) + ": " + toolkitText(p)
        text += "\(p.iterations) iterations, \(p.layoutCalls) layouts"
        if p.layoutHooksCalled.isEmpty { text += " (no layout seen: toolkit not supported or not interposable)" }
        if let objects = p.objectsTracked {
            text += ", \(count(objects, "object")) (widgets) of \(count(p.classesTracked ?? 0, "class", "classes")) tracked"
        }
        text += ", \(p.breaches) breach\(p.breaches == 1 ? "" : "es")"
        if p.breaches > 0 {
            text += " (\(p.written) written, \(p.suppressed) suppressed, \(p.joined) joined"
            if p.capped > 0 { text += ", \(p.capped) over the cap" }
            if p.failed > 0 { text += ", \(p.failed) NOT WRITTEN" }
            text += ")"
        }
        if p.mallocIsOurs == false, let note = p.allocatorNote {
            text += "; allocations not counted: \(note)"
        } else if p.mallocIsOurs == false {
            // No allocator ahead of LoopHunter was found: nothing was allocated where it could see
            // (a process that allocates nothing, or an allocator it could not name).
            text += "; no allocation reached LoopHunter"
        } else if let bytes = p.allocatedBytes, let calls = p.allocationCalls {
            text += "; \(ByteCount(bytes)) allocated in \(count(calls, "call"))"
            // A `loophunter attach` session saw blocks from before it freed: what is live is not known.
            text += p.state == "detached" ? " during the session" : ", \(ByteCount(p.liveBytes ?? 0)) live at exit"
        }
        return text + healthProcessText(p)
    }

    /// `toolkit GTK 3; `, `toolkits GTK 3, wxWidgets (not supported: layouts are not counted); `,
    /// `no known toolkit; `, or nothing for a summary older than schema 1.5.
    static func toolkitText(_ p: ProcessOverview) -> String {
        guard let toolkits = p.toolkits else { return "" }
        if toolkits.isEmpty { return "no known toolkit; " }
        let names = toolkits.map { $0.name + ($0.supported ? "" : " (not supported: layouts are not counted)") }
        return (toolkits.count == 1 ? "toolkit " : "toolkits ") + names.joined(separator: ", ") + "; "
    }

    /// How the process left, when its summary was not written at a plain exit: ` (left through
    /// _exit)`, ` (replaced by exec)`, ` (last seen running: killed, crashed or still running)`.
    static func stateText(_ p: ProcessOverview) -> String {
        switch p.state {
        case "_exit": " (left through _exit)"
        case "exec": " (replaced by exec)"
        case "running": " (last seen running: killed, crashed or still running)"
        default: ""
        }
    }

    /// The stack as aligned lines, app frames marked `▶`, as the text format lists it, at most
    /// `maxFrames` frames and a line counting the rest. Names are made single-line first, so
    /// every frame is exactly one line whatever its name contains.
    static func stackLines(_ f: Finding, maxFrames: Int) -> [String] {
        stackLines(f.stack, maxFrames: maxFrames)
    }

    /// A stack (the finding's, or a timer's created stack) as aligned lines.
    static func stackLines(_ stack: [SymbolizedFrame], maxFrames: Int) -> [String] {
        let shown = stack.prefix(maxFrames).map { frame in
            let (function, location, module) = frameLine(frame)
            return (frame, oneLine(function), oneLine(location),
                    oneLine(module) + (frame.source == .inProcess ? " (in-process name)" : ""))
        }
        let nameWidth = min(40, shown.map(\.1.count).max() ?? 0)
        let locationWidth = min(32, shown.map(\.2.count).max() ?? 0)
        var lines = shown.map { frame, function, location, module in
            let marker = frame.origin == .app ? "▶" : " "
            return "\(marker) #" + padded(String(frame.index), 3) + " " + padded(function, nameWidth) + "  "
                + padded(location, locationWidth) + "  " + module
        }
        if stack.count > shown.count { lines.append("    ... \(stack.count - shown.count) more frames") }
        return lines
    }

    /// The functions a frame's code was inlined into, innermost first, without the repeats
    /// debug information gives for nested scopes of one function.
    static func inlinedInto(_ frame: SymbolizedFrame) -> [String] {
        var names: [String] = []
        var previous = frame.primary?.function
        for function in frame.symbols.dropFirst().compactMap(\.function) where function != previous {
            names.append(function)
            previous = function
        }
        return names
    }

    /// The text with every character that would break a line, a table row or an XML document
    /// (C0 and C1 controls, DEL, line and paragraph separators, U+FFFE/U+FFFF) shown as a visible
    /// stand-in: control pictures (`␤` for a newline, `␁` for U+0001), else U+FFFD. Names from
    /// reports go through this before any escaping, so they always stay on one line.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isBreaking) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: out.append("␤")
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            case 0x7F: out.append("␡")
            case 0x80..<0xA0, 0xFFFE, 0xFFFF: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isBreaking(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
