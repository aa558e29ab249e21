/// Why a `timer-storm` fired (schema 1.3): `growth` (live sources grew over `iterations`
/// iterations in a row, from `startLive`) or `fires`: one repeating source fired `firesInARow`
/// times in a row with its event loop never sleeping in between (reports of earlier preloads
/// instead give `firesInIteration`, the fires of one callback in one iteration). The fields of the
/// other reason are nil.
public struct TimerStorm: Codable, Sendable, Equatable {
    public let reason: String
    public let iterations: UInt64?
    public let startLive: UInt64?
    public let firesInIteration: UInt64?
    public let firesInARow: UInt64?

    enum CodingKeys: String, CodingKey {
        case reason, iterations
        case startLive = "start_live"
        case firesInIteration = "fires_in_iteration"
        case firesInARow = "fires_in_a_row"
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension TimerStorm: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        reason = try json.decode(CodingKeys.reason)
        iterations = try json.decodeIfPresent(CodingKeys.iterations)
        startLive = try json.decodeIfPresent(CodingKeys.startLive)
        firesInIteration = try json.decodeIfPresent(CodingKeys.firesInIteration)
        firesInARow = try json.decodeIfPresent(CodingKeys.firesInARow)
    }
}
