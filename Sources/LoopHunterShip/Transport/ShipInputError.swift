/// A bad input to shipping (the collector's URL, the token, the CA file): the message names the
/// input and says what to do.
public struct ShipInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
