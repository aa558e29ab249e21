/// Why a `timer-storm` fired (schema 1.3): `growth` (live sources grew over `iterations`
/// iterations in a row, from `startLive`) or `fires` (one callback fired `firesInIteration` times
/// in one iteration). The fields of the other reason are nil.
public struct TimerStorm: Codable, Sendable, Equatable {
    public let reason: String
    public let iterations: UInt64?
    public let startLive: UInt64?
    public let firesInIteration: UInt64?

    enum CodingKeys: String, CodingKey {
        case reason, iterations
        case startLive = "start_live"
        case firesInIteration = "fires_in_iteration"
    }
}
