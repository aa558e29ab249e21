import ArgumentParser

/// Where the preload comes from and where its reports go: the options `run` and `attach` share.
/// Each lookup says what is wrong on stderr and exits 2 (unusable) when it fails.
struct PlacementOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Report directory (default: a new one under $TMPDIR, kept and printed).", valueName: "dir"))
    var dir: String?

    @Option(help: ArgumentHelp("The preload to use (default: next to loophunter, or $LOOPHUNTER_PRELOAD).", valueName: "path"))
    var preload: String?

    /// The preload's path (--preload, $LOOPHUNTER_PRELOAD, or next to loophunter).
    func preloadPath() throws -> String {
        switch PreloadLocator.locate(explicit: preload) {
        case .success(let path): return path
        case .failure(let missing):
            Diagnostics.say(missing.description)
            throw ExitStatus.exit(ExitStatus.unusable)
        }
    }

    /// The report directory, created or checked (--dir, or a new one).
    func reportDirectory() throws -> String {
        do {
            return try RunDirectory.prepare(dir)
        } catch {
            Diagnostics.say("\(error)")
            throw ExitStatus.exit(ExitStatus.unusable)
        }
    }
}
