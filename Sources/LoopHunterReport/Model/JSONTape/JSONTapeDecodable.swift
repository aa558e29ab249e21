/// A type the fast report path builds straight from a ``JSONTape`` (see ``ReportFile``), with
/// the same result as its `Decodable` init would give from the same JSON. A model type
/// conforms in its own file, next to its `CodingKeys`, and reads its fields through them, so
/// both paths use the same keys. A field added to the model must be read in `init(tape:)` too (the
/// compiler insists: every stored property is set), and ReportTapeTests compares both paths.
protocol JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch)
}
