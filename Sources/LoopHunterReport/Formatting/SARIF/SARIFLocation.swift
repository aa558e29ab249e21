/// A location: in a source file, or a function in a module when no file is known.
struct SARIFLocation: Codable, Sendable, Equatable {
    /// Set on related locations, which messages may refer to.
    var id: Int? = nil
    var physicalLocation: SARIFPhysicalLocation? = nil
    var logicalLocations: [SARIFLogicalLocation]? = nil
    var message: SARIFMessage? = nil
}
