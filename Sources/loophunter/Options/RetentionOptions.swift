import ArgumentParser
import LoopHunterShip

/// `ship`: how much of what is finished the spool keeps (oldest removed first).
struct RetentionOptions: ParsableArguments {
    @Option(name: .customLong("keep-sent"), help: ArgumentHelp("Sent reports kept at most.", valueName: "count"))
    var keepSent = RetentionPolicy.defaultSent.count

    @Option(name: .customLong("keep-sent-mib"), help: ArgumentHelp("MiB of sent reports kept at most.", valueName: "mib"))
    var keepSentMiB = RetentionPolicy.defaultSent.bytes >> 20

    @Option(name: .customLong("keep-rejected"), help: ArgumentHelp("Rejected reports kept at most.", valueName: "count"))
    var keepRejected = RetentionPolicy.defaultRejected.count

    @Option(name: .customLong("keep-rejected-mib"), help: ArgumentHelp("MiB of rejected reports kept at most.", valueName: "mib"))
    var keepRejectedMiB = RetentionPolicy.defaultRejected.bytes >> 20

    @Option(name: .customLong("keep-days"), help: ArgumentHelp("Days a sent or rejected report is kept at most.", valueName: "days"))
    var keepDays: Double = RetentionPolicy.defaultSent.age / 86_400

    func validate() throws {
        try RunCommand.check(keepSent, "--keep-sent", 0...100_000_000, "sent reports kept")
        try RunCommand.check(keepSentMiB, "--keep-sent-mib", 0...1_048_576, "MiB of sent reports kept")
        try RunCommand.check(keepRejected, "--keep-rejected", 0...100_000_000, "rejected reports kept")
        try RunCommand.check(keepRejectedMiB, "--keep-rejected-mib", 0...1_048_576, "MiB of rejected reports kept")
        guard (0...36_500).contains(keepDays) else {
            throw ValidationError("--keep-days must be between 0 and 36500 (got \(keepDays))")
        }
    }

    var policy: RetentionPolicy {
        RetentionPolicy(sent: RetentionCaps(count: keepSent, bytes: keepSentMiB << 20, age: keepDays * 86_400),
                        rejected: RetentionCaps(count: keepRejected, bytes: keepRejectedMiB << 20, age: keepDays * 86_400))
    }
}
