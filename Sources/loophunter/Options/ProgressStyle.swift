/// How `ship` shows progress on stderr.
enum ProgressStyle {
    /// A bar redrawn in place (stderr is a terminal).
    case bar
    /// Plain lines, at most one a second for deliveries (a log, a CI job).
    case lines
    /// Only what needs a person: waits, rejections, notices (`run --ship`, whose stderr is the program's too).
    case quiet
}
