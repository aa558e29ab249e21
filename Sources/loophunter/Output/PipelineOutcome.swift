/// What `ReportPipeline` did: its exit status, and whether the run can be called clean.
struct PipelineOutcome {
    /// 2 when the directory cannot be read, 3 for findings with --fail-on-breach, 1 when some files
    /// were skipped, 4 when nothing was seen (no summary, no report, no file that could not be
    /// read; `report` only), else 0.
    let status: Int32
    /// Nothing was found, and LoopHunter cannot vouch for the run (``RunVerdict/blind``, or no
    /// summary and no report at all).
    let blind: Bool
    /// What was not seen, as the output says it.
    let unseen: [String]
}
