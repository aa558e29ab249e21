import ArgumentParser

/// `loophunter watch --format`.
enum WatchFormat: String, ExpressibleByArgument, CaseIterable {
    /// A text block per report, a line per summary.
    case text
    /// One JSON object per line: a finding per report, a process overview per summary.
    case json
}
