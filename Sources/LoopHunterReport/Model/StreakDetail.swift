/// What a `layout-streak` report adds: the last hot iteration and the sizes around it.
public struct StreakDetail: Codable, Sendable, Equatable {
    /// Layouts of the object in the last hot iteration (more than one: relaid out within a frame).
    public let lastIterationLayouts: UInt64
    /// Size at the start of the last hot iteration, and at the start of the one after it.
    public let sizeBefore: Size?
    public let sizeAfter: Size?
    /// `LOOPHUNTER_STREAK_GAP_MS` in force: what counted as back-to-back.
    public let gapMs: UInt64

    enum CodingKeys: String, CodingKey {
        case lastIterationLayouts = "last_iteration_layouts"
        case sizeBefore = "size_before"
        case sizeAfter = "size_after"
        case gapMs = "gap_ms"
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension StreakDetail: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        lastIterationLayouts = try json.decode(CodingKeys.lastIterationLayouts)
        sizeBefore = try json.decodeIfPresent(CodingKeys.sizeBefore)
        sizeAfter = try json.decodeIfPresent(CodingKeys.sizeAfter)
        gapMs = try json.decode(CodingKeys.gapMs)
    }
}
