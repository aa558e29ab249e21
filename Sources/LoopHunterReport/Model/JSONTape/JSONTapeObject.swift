/// An object of a ``JSONTape``, read field by field the way a synthesized `Decodable` init reads
/// a keyed container: `decode` for a required field, `decodeIfPresent` for an optional one
/// (absent or `null` is nil), unknown keys ignored.
///
/// Stricter than `JSONDecoder` where that is cheap: a field given twice, or a key with escapes
/// or non-ASCII bytes, is a mismatch (the file then goes to `JSONDecoder`). Like
/// ``JSONTapeValue``, only valid while the memory it was made from is.
struct JSONTapeObject {
    let bytes: UnsafeRawBufferPointer
    let tokens: UnsafeBufferPointer<JSONTapeToken>
    /// The object's token; its keys and values follow up to `end`.
    let index: Int
    let end: Int

    func decode<T: JSONTapeDecodable>(_ key: some CodingKey) throws(JSONTapeMismatch) -> T {
        guard let value = try value(key), !value.isNull else { throw JSONTapeMismatch() }
        return try T(tape: value)
    }

    func decodeIfPresent<T: JSONTapeDecodable>(_ key: some CodingKey) throws(JSONTapeMismatch) -> T? {
        guard let value = try value(key), !value.isNull else { return nil }
        return try T(tape: value)
    }

    /// The value of `key`, nil when absent.
    private func value(_ key: some CodingKey) throws(JSONTapeMismatch) -> JSONTapeValue? {
        var name = key.stringValue
        // The token index of the value, 0 when absent, -1 when it cannot be used.
        let found = name.withUTF8 { wanted in
            var found = 0
            var i = index + 1
            while i < end {
                guard case .string(let start, let stop, true) = tokens[i] else { return -1 } // an unusual key
                let value = JSONTapeValue(bytes: bytes, tokens: tokens, index: i + 1)
                if stop - start == wanted.count, (0..<wanted.count).allSatisfy({ bytes[start + $0] == wanted[$0] }) {
                    guard found == 0 else { return -1 } // given twice
                    found = i + 1
                }
                i = value.next
            }
            return found
        }
        guard found >= 0 else { throw JSONTapeMismatch() }
        return found == 0 ? nil : JSONTapeValue(bytes: bytes, tokens: tokens, index: found)
    }
}
