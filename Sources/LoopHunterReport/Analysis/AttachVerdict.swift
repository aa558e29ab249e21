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
        let sentence = last.state == "exited"
            ? "\(subject) exited before LoopHunter saw an event-loop iteration or a layout in it\(counted)."
            : "In \(watched) LoopHunter saw no event-loop iteration and no layout in \(subject)\(counted): it runs no event "
                + "loop LoopHunter knows (GLib, GTK 3/4, toykit), or it was idle the whole time; interact with it while watching, or watch longer (--for)."
        return RunVerdict(blind: true, sentences: [sentence])
    }
}
