/// A message about the run itself (a skipped file), not about the analysed program.
struct SARIFNotification: Codable, Sendable, Equatable {
    /// `warning`
    let level: String
    let message: SARIFMessage
}
