// The field types of the report model, read as `JSONDecoder` reads them from plain JSON.

extension String: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) { self = try tape.string() }
}

extension Bool: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) { self = try tape.bool() }
}

extension UInt64: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) { self = try tape.unsigned() }
}

extension Int64: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) { self = try tape.signed() }
}

extension Int: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        guard let value = Int(exactly: try tape.signed()) else { throw JSONTapeMismatch() }
        self = value
    }
}

extension Array: JSONTapeDecodable where Element: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) { self = try tape.array(of: Element.self) }
}
