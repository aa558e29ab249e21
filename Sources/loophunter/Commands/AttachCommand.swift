import ArgumentParser
import Foundation
import LoopHunterCLISupport
import LoopHunterCore
import LoopHunterReport

/// `loophunter attach PID`: LoopHunter in a program that is already running, for a while.
struct AttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Watch a running program with LoopHunter for a while, without restarting it.",
        discussion: """
            Loads libloophunter.so into the process (ptrace, on a thread waiting in its event loop: no \
            other thread is stopped and none of the program's locks is taken), installs the same hooks \
            `run` has (the modules' GOT entries, GTK classes already made), watches for --for seconds \
            (or until Ctrl-C, or until the program exits), then puts everything back, writes the \
            summary and prints the findings as `run` does. The program runs on unchanged; the library \
            stays mapped, idle. Attaching again later works.

            Examples:
              loophunter attach $(pgrep -n gedit)
              loophunter attach --for 30 --dir /tmp/lh 12345
              loophunter attach --fail-on-breach --format junit -o lh.xml 12345

            Needs permission to trace the process: the same user (or root), and Yama's ptrace_scope 0 \
            (or CAP_SYS_PTRACE); `loophunter doctor` says whether this machine allows it.

            Exit status: 0; 2 when the process cannot be attached to (the message says why and what to \
            do) or the preload or report directory is unusable; with --fail-on-breach, 3 when \
            something was found and 4 when LoopHunter saw no event loop in the process.
            """)

    @Argument(help: ArgumentHelp("The process to watch.", valueName: "pid"))
    var pid: Int32

    @Option(name: .customLong("for"), help: ArgumentHelp("Seconds to watch (default 10).", valueName: "seconds"))
    var seconds: Double = 10

    @OptionGroup var detection: DetectionOptions

    @OptionGroup var placement: PlacementOptions

    @OptionGroup var output: OutputOptions

    /// Time allowed for a thread of the program to reach its event loop's wait, and for the call.
    static let injectTimeoutMs: Int32 = 10_000

    func validate() throws {
        guard pid > 0 else { throw ValidationError("the pid must be a positive number (got \(pid)), e.g. loophunter attach $(pgrep -n gedit)") }
        guard seconds > 0, seconds <= 86_400 else {
            throw ValidationError("--for must be between 0 and 86400 seconds (got \(seconds)): how long to watch")
        }
    }

    func run() throws {
        let target: AttachTarget
        do {
            target = try AttachTarget.inspect(pid: pid)
        } catch {
            Diagnostics.say("cannot attach: \(error)")
            throw ExitStatus.exit(ExitStatus.unusable)
        }
        let preloadPath = try placement.preloadPath()
        if let refusal = target.preloadedBy ?? target.underValgrind ?? target.withoutGlibc
            ?? (target.uid == geteuid() || geteuid() == 0 ? PtraceScope.refusal() : nil) {
            Diagnostics.say("cannot attach: \(refusal)")
            throw ExitStatus.exit(ExitStatus.unusable)
        }
        let reportDirectory = try placement.reportDirectory()
        var variables = detection.variables
        variables["LOOPHUNTER_DIR"] = reportDirectory
        let control: String
        do {
            // The session ends by itself a while after the watch, should this command be gone by then.
            control = try AttachControl.write(directory: reportDirectory, pid: pid, variables: variables,
                                              endsAfterSeconds: seconds + 30, owner: target.sandboxed || !target.sharesPidNamespace ? nil : getpid())
        } catch {
            Diagnostics.say("cannot write the attach control file into \(reportDirectory): \(error.localizedDescription); give a writable --dir")
            throw ExitStatus.exit(ExitStatus.unusable)
        }
        // Read by the preload during the attach call only: gone before the directory is read.
        defer { try? FileManager.default.removeItem(atPath: control) }

        let subject = "\(target.name) (pid \(pid))"
        let started = Date()
        switch Injector.call(pid: pid, library: preloadPath, function: "loophunter_attach", argument: control,
                             timeoutMs: Self.injectTimeoutMs) {
        case .failed(_, let message):
            Diagnostics.say("cannot attach to \(subject): \(message)")
            throw ExitStatus.exit(ExitStatus.unusable)
        case .returned(let code, _):
            try? FileManager.default.removeItem(atPath: control)
            if let refusal = Self.refusal(code: code, subject: subject, control: control) {
                Diagnostics.say("cannot attach: \(refusal)")
                throw ExitStatus.exit(ExitStatus.unusable)
            }
        }
        Diagnostics.say(String(format: "attached to %@ in %.3f s; watching for %g s (Ctrl-C ends the watch sooner)",
                               subject, Date().timeIntervalSince(started), seconds))

        let ended = Self.watch(pid: pid, seconds: seconds)
        if ended { Diagnostics.say("\(subject) ended during the watch; what follows covers it until then") }
        if !ended {
            switch Injector.call(pid: pid, library: preloadPath, function: "loophunter_detach", argument: control,
                                 timeoutMs: Self.injectTimeoutMs) {
            case .failed(let code, let message):
                if code == Int32(LH_INJECT_EXITED) || AttachTarget.isGone(pid) { break } // it ended meanwhile: its summary says "exited"
                Diagnostics.say("could not detach from \(subject): \(message); LoopHunter ends its session inside the "
                    + "program by itself within 30 s (the program runs on)")
            case .returned(let code, _):
                if code == Int32(LOOPHUNTER_ATTACH_NOT_ATTACHED.rawValue) {
                    Diagnostics.say("the session in \(subject) had already ended by itself")
                }
            }
        }

        let program = target.name
        let pid = Int(self.pid)
        let seconds = self.seconds
        let outcome = ReportPipeline(directory: reportDirectory, options: output, defaultDescriptor: 1).execute { collection in
            if let line = AttachVerdict.session(pid: pid, summaries: collection.summaries.map(\.summary)) { Diagnostics.say(line) }
            return AttachVerdict.judge(program: program, pid: pid, seconds: seconds, summaries: collection.summaries.map(\.summary),
                                reportCount: collection.reports.count, ended: ended)
        }
        Diagnostics.say("reports are in \(reportDirectory)")
        if outcome.status == ExitStatus.findings || outcome.status == ExitStatus.unusable { throw ExitStatus.exit(outcome.status) }
        if output.failOnBreach && outcome.blind { throw ExitStatus.exit(ExitStatus.notSeen) }
    }

    /// The sentence for what loophunter_attach answered, nil when it attached.
    static func refusal(code: Int32, subject: String, control: String) -> String? {
        switch UInt32(bitPattern: code) {
        case LOOPHUNTER_ATTACH_OK.rawValue: return nil
        case LOOPHUNTER_ATTACH_PRELOADED.rawValue:
            return "\(subject) already runs under the LoopHunter preload; read its reports with `loophunter report` on its LOOPHUNTER_DIR"
        case LOOPHUNTER_ATTACH_RUNNING.rawValue:
            return "another loophunter attach is watching \(subject) now; wait until it ends (its --for; a session whose "
                + "command was killed ends within a second of the program's next event-loop iteration)"
        case LOOPHUNTER_ATTACH_NO_CONTROL.rawValue:
            return "\(subject) could not read the control file \(control) (another mount namespace or a sandbox?); "
                + "give a --dir the program can read"
        case LOOPHUNTER_ATTACH_OFF.rawValue:
            return "LoopHunter could not start inside \(subject) (LOOPHUNTER_DISABLE, or no memory); the program's stderr says why"
        default:
            return "LoopHunter inside \(subject) answered \(code), which this loophunter does not know; use the libloophunter.so built with it (--preload)"
        }
    }

    /// Waits `seconds`, or until Ctrl-C / SIGTERM, or until the process exits (true then).
    static func watch(pid: Int32, seconds: Double) -> Bool {
        let stop = StopFlag()
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stop.set() }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        let end = Date().addingTimeInterval(seconds)
        while Date() < end && !stop.isSet {
            if AttachTarget.isGone(pid) { return true }
            usleep(50_000)
        }
        return AttachTarget.isGone(pid)
    }
}
