/// Wording of the event-loop health kinds (schema 1.3: `stall`, `slow-window`, `timer-storm`,
/// `timer-outlives-target`) and of the processes' stalls, windows and timers, shared by every
/// format. Nothing here escapes.
extension FindingText {
    /// The health facts as labelled rows, in the order every format lists them (after the memory
    /// side); empty for the other kinds.
    ///
    /// - `stall`: how long, whether it was over, how the stack was sampled;
    /// - `stuck`: the frame the thread was stuck in (the innermost), and the system call;
    /// - `window`: the window, since when, its time to first frame against the limit;
    /// - `slowest`: the slowest steps on the way (signal or callback, longest, how many);
    /// - `timer`: the source API, callback, user data, interval, fires, live sources;
    /// - `storm`: why a timer storm fired;
    /// - `freed`: a timer outliving its target: what freed it.
    static func healthRows(_ f: Finding) -> [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        switch f.detail {
        case .stall(let stall):
            rows.append(("stall", stallText(stall)))
            if let top = f.stack.first { rows.append(("stuck", stuckText(top, stall: stall))) }
        case .window(let window, let steps):
            rows.append(("window", windowText(f, window)))
            if !steps.isEmpty { rows.append(("slowest", stepsText(steps))) }
        case .timer(let timer, let callback, _):
            rows.append(("timer", timerText(timer, callback: callback)))
            if let storm = timer.storm { rows.append(("storm", stormText(storm, timer: timer))) }
            if f.kind == .timerOutlivesTarget {
                rows.append(("freed", timer.freedDuringDispatch == true
                    ? "by the source's own callback, which then kept the source (returned TRUE): the next fire runs on freed memory"
                    : "while the source was still attached: its next fire runs on freed memory (stack below: where it was freed)"))
            }
        case .none, .streak, .warning:
            break
        }
        return rows
    }

    /// `2500 ms, over (the thread returned to its loop); stack sampled 1701 ms in, by signal, while running`
    static func stallText(_ s: ReportStall) -> String {
        var text = "\(s.durationMs) ms, " + (s.ongoing ? "still stuck when reported" : "over (the thread returned to its loop)")
        switch s.method {
        case "none":
            text += "; no stack could be taken"
        default:
            text += "; stack sampled"
            if let after = s.sampledAfterMs { text += " \(after) ms in" }
            text += s.method == "scan"
                ? ", by scan from outside (top frame exact, the others likely but possibly stale)"
                : ", by \(s.method) on the thread itself"
            text += s.syscall.map { ", blocked in \($0)()" } ?? ", while running"
        }
        if s.samples > 1 { text += " (sampled \(s.samples) times)" }
        return text
    }

    /// `clock_nanosleep (libc.so.6), in the system call clock_nanosleep`
    static func stuckText(_ top: SymbolizedFrame, stall: ReportStall) -> String {
        var text = location(top) ?? top.displayName
        if let call = stall.syscall { text += ", in the system call \(call)" }
        return text
    }

    /// `TkWindow 'main' since map: first frame after 2530 ms (limit 2000 ms)`
    static func windowText(_ f: Finding, _ w: ReportWindow) -> String {
        var text = f.object.label + (w.title.map { " \"\($0)\"" } ?? "") + " since \(w.since): "
        text += w.painted
            ? "first frame after \(w.timeToFirstFrameMs) ms"
            : "never painted (waited \(w.timeToFirstFrameMs) ms)"
        return text + " (limit \(f.threshold) ms)"
    }

    /// `realize on GtkWindow 2.10 s ×1; slow_window_build (step) 2.00 s ×1`
    static func stepsText(_ steps: [SymbolizedStep]) -> String {
        steps.map { "\($0.label) \(micros($0.durationUs)) ×\($0.count)" }.joined(separator: "; ")
    }

    /// `g_timeout_add every 100 ms calling tick_cb (toykit-demo), data 0x55d0c0a0, fired 12 times, 812 live sources`
    static func timerText(_ t: ReportTimer, callback: SymbolizedFrame?) -> String {
        var text = t.source + (t.intervalMs.map { " every \($0) ms" } ?? " (idle)")
        if let callback { text += " calling \(location(callback) ?? callback.displayName)" }
        return text + ", data \(t.data), fired \(count(t.fires, "time")), \(count(t.liveSources, "live source"))"
    }

    /// `live sources grew in 60 iterations in a row, from 12`, `250 fires in a row, the loop never sleeping`
    static func stormText(_ s: TimerStorm, timer: ReportTimer) -> String {
        if s.reason == "fires", let inARow = s.firesInARow { return "\(inARow) fires in a row, the loop never sleeping" }
        if s.reason == "fires" { return "\(s.firesInIteration.map(String.init) ?? "?") fires of the callback in one iteration" }
        var text = "live sources grew"
        if let iterations = s.iterations { text += " in \(count(iterations, "iteration")) in a row" }
        if let start = s.startLive { text += ", from \(start) to \(timer.liveSources)" }
        return text
    }

    /// `850 µs`, `212 ms`, `2.10 s`
    static func micros(_ us: UInt64) -> String {
        if us < 1000 { return "\(us) µs" }
        if us < 1_000_000 { return "\(us / 1000) ms" }
        let hundredths = (us + 5000) / 10000
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) s"
    }

    /// The created stack of a timer outliving its target, as ``stackLines(_:maxFrames:)`` lists a
    /// stack; empty for other findings.
    static func createdStackLines(_ f: Finding, maxFrames: Int) -> [String] {
        guard let created = f.createdStack else { return [] }
        return stackLines(created, maxFrames: maxFrames)
    }

    /// `; 2 stalls (longest 2500 ms); timers: 120 created, 118 destroyed, 2 live, 5400 fires, 0 outlived`
    /// for the process line, empty without the 1.3 sections.
    static func healthProcessText(_ p: ProcessOverview) -> String {
        var text = ""
        if let stalls = p.stallCount {
            text += "; \(count(stalls, "stall"))"
            if stalls > 0, let longest = p.longestStallMs { text += " (longest \(longest) ms)" }
        }
        if let t = p.timers {
            text += "; timers: \(t.created) created, \(t.destroyed) destroyed, \(t.live) live, \(count(t.fires, "fire")), "
                + "\(t.outlived) outlived their target"
            if t.untracked > 0 { text += ", \(t.untracked) untracked" }
        }
        return text
    }

    /// The columns of a process's time-to-first-frame table.
    static let windowColumns = ["window", "title", "since", "time to first frame", "slowest step"]

    /// One row per window of the process (the summary's `windows`), in ``windowColumns``' order;
    /// nil when the window hook family was off.
    static func windowRows(_ p: ProcessOverview) -> [[String]]? {
        p.windows.map { windows in
            windows.map { w in
                let ttff = w.timeToFirstFrameMs.map { "\($0) ms" }
                    ?? "never painted" + (w.waitedMs.map { " (waited \($0) ms)" } ?? "")
                let over = w.timeToFirstFrameMs.flatMap { ms in p.windowMs.flatMap { ms > $0 ? $0 : nil } }
                return [
                    w.label, w.title ?? "—", w.since,
                    ttff + (over.map { " (over \($0) ms)" } ?? ""),
                    w.slowestStep.map { step in step + (w.slowestStepUs.map { " \(micros($0))" } ?? "") } ?? "—",
                ]
            }
        }
    }

    /// `Windows of pid 4101 toykit-demo (time to first frame, limit 2000 ms)`, with a note when the
    /// list was truncated.
    static func windowsHeading(_ p: ProcessOverview) -> String {
        let name = p.executable.split(separator: "/").last.map(String.init) ?? p.executable
        var text = "Windows of pid \(p.pid) \(name) (time to first frame"
        if let limit = p.windowMs { text += ", limit \(limit) ms" }
        text += ")"
        if let seen = p.windowsSeen {
            // Schema 1.5: what is not listed, exactly.
            let dropped = p.windowsDropped ?? 0, neverShown = p.windowsNeverShown ?? 0
            if neverShown > 0 || dropped > 0 {
                text += "; \(count(seen, "window")) made: \(p.windows?.count ?? 0) listed"
                if neverShown > 0 { text += ", \(neverShown) never shown" }
                if dropped > 0 { text += ", \(dropped) not followed (over the limit)" }
            }
        } else if p.windowsTruncated == true {
            text += "; more windows were seen than listed"
        }
        return text
    }
}

extension FindingText {
    /// The text format's `(▶ your code)`, after the stack's caption (``ReportKind/stackCaption``)
    /// when it has one.
    static func stackHint(_ f: Finding) -> String {
        "(" + (f.kind.stackCaption.map { $0 + "; " } ?? "") + "▶ your code)"
    }

    /// Rows as lines of left-aligned columns two spaces apart, every cell on one line.
    static func alignedTable(_ rows: [[String]]) -> [String] {
        let clean = rows.map { $0.map(oneLine) }
        let widths = (0..<(clean.map(\.count).max() ?? 0)).map { column in
            clean.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return clean.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
    }
}
