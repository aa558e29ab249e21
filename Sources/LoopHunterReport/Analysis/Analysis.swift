/// The result of analysing a report directory: what every format prints.
public struct Analysis: Sendable, Codable, Equatable {
    /// As given by the user (formats print it as is, so outputs do not depend on the machine).
    public let directory: String
    /// Most severe first, then most frequent, then oldest.
    public var findings: [Finding]
    /// One per summary file (per process), by pid.
    public let processes: [ProcessOverview]
    /// One message per file that could not be read.
    public let problems: [String]
    public let reportCount: Int
    /// How symbolization went, e.g. `llvm-symbolizer (/usr/bin/llvm-symbolizer)`.
    public let symbolizer: String
    /// Distinct reasons frames fell back to in-process names (a rebuilt module, no symbolizer).
    public let symbolizationNotes: [String]
    /// Findings that `--suppress` rules matched (nil when no rule was given): never lost, listed
    /// apart with the rule, and not counted by `--fail-on-breach`.
    public var suppressed: [SuppressedFinding]? = nil
    /// What LoopHunter did not see, one sentence each: a directory without any process summary,
    /// and (set by `loophunter run`, ``seeing(_:)``) the program it started when that left no
    /// summary, only a snapshot, never loaded the preload or handed off to a running instance.
    /// Nil when everything was seen. With it, no format calls the run clean.
    public var unseen: [String]?

    public var loopCount: Int { findings.count }

    /// The same analysis with `sentences` as what was not seen (replacing the directory's own).
    public func seeing(_ sentences: [String]) -> Analysis {
        var copy = self
        copy.unseen = sentences.isEmpty ? nil : sentences
        return copy
    }

    /// Whether anything was left unseen (``unseen``).
    public var sawEverything: Bool { unseen?.isEmpty ?? true }
}
