/// What `loophunter run` can say of the program it started, from how it ended and what the run's
/// report directory holds: whether LoopHunter saw it (to its end, with an event loop), and when
/// not, why, in sentences that name the program and the cause. A run it did not see is never
/// called clean ("no loops found"): ``blind`` runs fail `run --fail-on-breach` with status 4.
public struct RunVerdict: Sendable, Equatable {
    /// Nothing was found, and LoopHunter cannot vouch for the run: the program left no summary,
    /// only a snapshot, never loaded the preload, handed off to a running instance, or no process
    /// ran an event loop LoopHunter saw.
    public let blind: Bool
    /// What was not seen, one sentence each (empty when everything was seen).
    public let sentences: [String]

    public init(blind: Bool, sentences: [String]) {
        self.blind = blind
        self.sentences = sentences
    }

    /// The verdict on a run of `command` (as given after `--`; the program is its first word),
    /// started as process `pid`, that ended as `end`. `summaries`: those of the run's directory;
    /// `reportCount`: its reports; `preloadProblem`: why the loader would not load the preload into
    /// the program's file (statically linked, set-user-ID), found before it started.
    public static func judge(command: [String], pid: Int, end: ProgramEnd, summaries: [Summary], reportCount: Int,
                             preloadProblem: String? = nil) -> RunVerdict {
        let program = command.first.map(FrameClassifier.fileName) ?? "the program"
        let subject = "\(program) (pid \(pid))"
        let handedOff = summaries.filter { $0.gapplication?.remote == true }
        let watched = summaries.filter { $0.gapplication?.remote != true }
        let sawLoop = { (s: Summary) in s.iterations > 0 || s.layoutCalls > 0 }
        let anyLoop = watched.contains(where: sawLoop)
        let othersSawLoop = watched.contains { $0.process.pid != pid && sawLoop($0) }
        var sentences: [String] = []

        // A single-instance application that handed its command line to one already running.
        var ids = Set<String>()
        for s in handedOff where ids.insert(s.gapplication?.id ?? "").inserted {
            sentences.append(handOff(program: FrameClassifier.fileName(s.process.executable), id: s.gapplication?.id,
                                     command: command))
        }
        let handedOffOnly = !handedOff.isEmpty && !anyLoop

        // The program itself: its summaries (an exec leaves one per program image), the latest last.
        let own = summaries.filter { $0.process.pid == pid && $0.gapplication?.remote != true }.sorted { $0.started < $1.started }
        var programNote: String?
        if !handedOff.contains(where: { $0.process.pid == pid }) {
            programNote = programSentence(subject: subject, own: own, end: end, othersSawLoop: othersSawLoop,
                                          anyLoop: anyLoop, reportCount: reportCount, preloadProblem: preloadProblem)
        }
        if let programNote { sentences.append(programNote) }
        // Findings are never blind (they fail --fail-on-breach as findings); else anything unseen is.
        let blind = reportCount == 0 && (handedOffOnly || !anyLoop || programNote != nil)
        return RunVerdict(blind: blind, sentences: sentences)
    }

    /// The sentence about the program LoopHunter started, or nil when it was seen to its end (or,
    /// without a summary of its own, when it only started the processes that were: a shell script).
    static func programSentence(subject: String, own: [Summary], end: ProgramEnd, othersSawLoop: Bool, anyLoop: Bool,
                                reportCount: Int, preloadProblem: String?) -> String? {
        guard let last = own.last else {
            if case .killed(let signal) = end {
                return "\(subject) was killed by \(ProgramEnd.signalName(signal)) and wrote no summary; "
                    + "LoopHunter did not see it run to the end."
            }
            if let preloadProblem {
                return "\(subject) exited with status \(end.shellStatus); the preload never loaded into it "
                    + "(\(preloadProblem)), so LoopHunter saw nothing of it."
            }
            // A script that started the processes LoopHunter saw, and ran no event loop itself.
            if othersSawLoop || reportCount > 0 { return nil }
            return "\(subject) exited with status \(end.shellStatus) before LoopHunter saw an event loop in it; "
                + "if it runs one, the preload never loaded into it (LD_PRELOAD was reset, e.g. by "
                + "`env LD_PRELOAD=`, or the program it started is statically linked or set-user-ID)."
        }
        switch last.state {
        case "running":
            if case .killed(let signal) = end {
                return "\(subject) was killed by \(ProgramEnd.signalName(signal)); LoopHunter has only a snapshot of it "
                    + "from while it ran, and did not see it to the end."
            }
            return "\(subject) exited with status \(end.shellStatus) without writing its final summary; LoopHunter has "
                + "only a snapshot of it from while it ran."
        case "exec":
            if case .killed(let signal) = end {
                return "\(subject) replaced itself with another program (exec), which was killed by "
                    + "\(ProgramEnd.signalName(signal)) before it wrote a summary; LoopHunter did not see it run."
            }
            return "\(subject) replaced itself with another program (exec) that the preload never loaded into "
                + "(LD_PRELOAD was reset, or it is statically linked or set-user-ID), and exited with status "
                + "\(end.shellStatus); LoopHunter saw nothing after the exec."
        default:
            // Seen to its end ("exited", "_exit"), or a summary of a preload that writes only at exit.
            if anyLoop || reportCount > 0 { return nil }
            return "\(subject) exited with status \(end.shellStatus) before LoopHunter saw an event loop in it."
        }
    }

    /// The hand-off sentence: what happened and how to watch a new instance.
    static func handOff(program: String, id: String?, command: [String]) -> String {
        let session = id.map { " (\($0))" } ?? ""
        return "\(program) handed its command line to an instance already running on this D-Bus session\(session) "
            + "and exited; LoopHunter watched nothing. Watch a new instance: loophunter run -- dbus-run-session -- "
            + "\(shellQuoted(command)) (a private session bus), or the app's own new-instance flag if it has one."
    }

    /// `gedit 'a file.txt'`: the words as a shell would need them.
    public static func shellQuoted(_ words: [String]) -> String {
        words.map { word in
            let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
            return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
