/// A message about the run itself (a skipped file; what LoopHunter did not see), not about the
/// analysed program.
struct SARIFNotification: Codable, Sendable, Equatable {
    /// `warning` (a skipped file), `error` (something not seen)
    let level: String
    let message: SARIFMessage
}
