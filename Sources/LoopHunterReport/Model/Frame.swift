/// One stack frame of a report.
public struct Frame: Codable, Sendable, Equatable {
    /// The return address, `0x...` (a callback's: the function's entry address).
    public let pc: String
    /// Path of the module that contained it, when known.
    public let module: String?
    /// GNU build-id of that module (hex), to check that the file on disk is the one that ran.
    public let buildId: String?
    /// `pc` minus the module's load bias, `0x...`: symbolize at `offset - 1` (inside the call) for a
    /// stack frame, at `offset` for a callback (an entry address: see ``CodeAddress``).
    public let offset: String?
    /// Exported symbol that provably contains the address (checked against its size), else nil.
    public let symbol: String?
    public let symbolOffset: UInt64?

    enum CodingKeys: String, CodingKey {
        case pc, module
        case buildId = "build_id"
        case offset, symbol
        case symbolOffset = "symbol_offset"
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension Frame: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        pc = try json.decode(CodingKeys.pc)
        module = try json.decodeIfPresent(CodingKeys.module)
        buildId = try json.decodeIfPresent(CodingKeys.buildId)
        offset = try json.decodeIfPresent(CodingKeys.offset)
        symbol = try json.decodeIfPresent(CodingKeys.symbol)
        symbolOffset = try json.decodeIfPresent(CodingKeys.symbolOffset)
    }
}
