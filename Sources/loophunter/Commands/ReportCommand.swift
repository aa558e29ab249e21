import ArgumentParser

/// `loophunter report DIR`: the findings of a report directory, grouped and formatted.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Show the findings of a report directory.",
        discussion: """
            Reads every report and summary in DIR (never changing it), symbolizes the stacks with \
            llvm-symbolizer, groups reports of the same loop, and prints them. Files that cannot be \
            read are named on stderr and skipped.

            Examples:
              loophunter report /tmp/lh
              loophunter report /tmp/lh --format html -o lh.html
              loophunter report /tmp/lh --format markdown >> "$GITHUB_STEP_SUMMARY"
              loophunter report /tmp/lh --format sarif --source-root . -o loophunter.sarif
              loophunter report /tmp/lh --format junit -o loophunter.xml --fail-on-breach
              loophunter report /tmp/lh --write-suppressions known.supp      # a baseline of today's findings
              loophunter report /tmp/lh --suppress known.supp --fail-on-breach   # fails only on new ones

            A directory with no process summary and no report says it saw nothing. With reports but \
            no summary (the processes were killed, or are still running), the findings are shown \
            with a warning that what else the processes did is not known; the status is as usual.

            Exit status: 0; 1 when some files were skipped; 2 when DIR cannot be read; 3 with \
            --fail-on-breach when anything not suppressed was found; 4 when DIR holds no summary, no \
            report and no file it could not read (LoopHunter saw nothing); 64 for a bad command line \
            or suppression file.
            """)

    @Argument(help: ArgumentHelp("The report directory (LOOPHUNTER_DIR of the run).", valueName: "dir"))
    var directory: String

    @OptionGroup var output: OutputOptions

    func run() throws {
        let status = ReportPipeline(directory: directory, options: output, defaultDescriptor: 1).execute().status
        if status != 0 { throw ExitStatus.exit(status) }
    }
}
