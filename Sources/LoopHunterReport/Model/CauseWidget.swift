/// The widget a layout request was made on (a report's ``ReportCause/widget``).
public struct CauseWidget: Codable, Sendable, Equatable {
    /// `0x...`
    public let address: String
    public let type: String?
    public let name: String?
    /// `TkWindow 'main' > Toolbar 'toolbar' > StatusLabel 'status'`
    public let path: String?
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension CauseWidget: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        address = try json.decode(CodingKeys.address)
        type = try json.decodeIfPresent(CodingKeys.type)
        name = try json.decodeIfPresent(CodingKeys.name)
        path = try json.decodeIfPresent(CodingKeys.path)
    }
}
