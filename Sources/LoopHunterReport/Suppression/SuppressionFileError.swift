/// A suppression file that cannot be used, with what to do about it.
public struct SuppressionFileError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) { self.description = description }
}
