/// The property bag of a stack frame: whose code it is and where its name came from.
struct SARIFFrameProperties: Codable, Sendable, Equatable {
    let index: Int
    /// `app`, `toolkit`, `system`, `loophunter` or `unknown`.
    let origin: String
    /// `debug-info`, `in-process` or `none`.
    let symbolSource: String
    let pc: String
    let offset: String?
    let modulePath: String?
    /// The functions the frame's code was inlined into, innermost first.
    let inlinedInto: [String]?
    /// Why debug information was not used, when it was not.
    let note: String?
}
