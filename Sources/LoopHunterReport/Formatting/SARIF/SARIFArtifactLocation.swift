/// A file: a URI, relative to `uriBaseId` when that is set.
struct SARIFArtifactLocation: Codable, Sendable, Equatable {
    let uri: String
    var uriBaseId: String? = nil
}
