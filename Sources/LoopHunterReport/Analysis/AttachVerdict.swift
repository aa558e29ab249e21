/// What `loophunter attach` can say of the process it watched, from the session's summary: seen for
/// the whole watch (the summary says "detached", or "exited" when the program ended meanwhile), and
/// whether LoopHunter saw an event loop or layouts in that time. Like ``RunVerdict``, a watch that saw
/// nothing is never called clean.
public enum AttachVerdict {
    /// `program` (its file name) ran as `pid` and was watched for `seconds`; `summaries`: those of the
    /// session's directory; `reportCount`: its reports; `ended`: the program ended during the watch.
    public static func judge(program: String, pid: Int, seconds: Double, summaries: [Summary], reportCount: Int,
                             ended: Bool) -> RunVerdict {
        let subject = "\(program) (pid \(pid))"
        let own = summaries.filter { $0.process.pid == pid }
        guard let last = own.last else {
            let sentence = ended
                ? "\(subject) ended during the watch without a summary (killed, or crashed); LoopHunter saw only its reports."
                : "LoopHunter left no summary of \(subject): the session did not end normally (the program's stderr may say why)."
            return RunVerdict(blind: reportCount == 0, sentences: [sentence])
        }
        if last.iterations > 0 || last.layoutCalls > 0 || reportCount > 0 {
            return RunVerdict(blind: false, sentences: [])
        }
        let watched = String(format: "%.0f s", seconds)
        let allocations = last.alloc?.calls ?? 0
        let counted = allocations > 0 ? " (it counted \(allocations) allocation calls)" : ""
        if last.iterationSource.loopCodeRanges == 0 {
            // No event-loop library at all: what could be watched was the allocations and the waits.
            let libraries = last.iterationSource.loopLibraries.joined(separator: ", ")
            let sentence = "\(subject) has no event-loop library LoopHunter knows loaded (\(libraries); LOOPHUNTER_LOOP_LIBS "
                + "names more): in \(watched) it watched only its allocations\(allocations > 0 ? " (\(allocations) calls)" : "") "
                + "and its waits, so no layout loop can be seen in it; if it runs a toolkit LoopHunter does not support yet, "
                + "say which in a bug report."
            return RunVerdict(blind: true, sentences: [sentence])
        }
        let sentence = last.state == "exited"
            ? "\(subject) exited before LoopHunter saw an event-loop iteration or a layout in it\(counted)."
            : "In \(watched) LoopHunter saw no event-loop iteration and no layout in \(subject)\(counted): it runs no event "
                + "loop LoopHunter knows (GLib, GTK 3/4, toykit), or it was idle the whole time; interact with it while watching, or watch longer (--for)."
        return RunVerdict(blind: true, sentences: [sentence])
    }

    /// One line on how the session went into `pid` (its last summary's `attach` section): the GOT
    /// entries redirected, those left, and how soon the first event-loop iteration was counted; nil
    /// without such a section.
    public static func session(pid: Int, summaries: [Summary]) -> String? {
        guard let attach = summaries.last(where: { $0.process.pid == pid })?.attach else { return nil }
        var line = "hooks: \(attach.entriesRedirected) GOT entries redirected in \(attach.modules) modules"
        if attach.entriesLeft > 0 { line += ", \(attach.entriesLeft) left as bound elsewhere (their calls are not seen)" }
        if attach.entriesUnwritable > 0 { line += ", \(attach.entriesUnwritable) not writable" }
        if let first = attach.firstIterationNs {
            line += String(format: "; the first event-loop iteration was counted %.1f ms after attaching", Double(first) / 1e6)
        } else {
            line += "; no event-loop iteration was counted"
        }
        if attach.endedBy == "deadline" || attach.endedBy == "command gone" {
            line += "; the session ended by itself (\(attach.endedBy ?? ""))"
        }
        return line
    }
}
