/// A message: plain text, and optionally the same as GitHub-flavoured Markdown.
struct SARIFMessage: Codable, Sendable, Equatable {
    let text: String
    var markdown: String? = nil
}
