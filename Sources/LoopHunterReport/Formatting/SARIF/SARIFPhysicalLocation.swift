/// A source file and, when known, the line (and column) in it.
struct SARIFPhysicalLocation: Codable, Sendable, Equatable {
    let artifactLocation: SARIFArtifactLocation
    let region: SARIFRegion?
}
