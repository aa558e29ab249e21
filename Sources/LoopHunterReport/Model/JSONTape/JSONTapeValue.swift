/// One value of a ``JSONTape``, read as the type a model field has.
///
/// A view into memory it does not own: only valid while the bytes and tokens it was made from
/// are (``ReportFile`` makes and drops it inside their `withUnsafe...` closures).
struct JSONTapeValue {
    let bytes: UnsafeRawBufferPointer
    let tokens: UnsafeBufferPointer<JSONTapeToken>
    let index: Int

    /// The index of the token after this value (and everything in it).
    var next: Int {
        switch tokens[index] {
        case .object(let end), .array(let end): return end
        default: return index + 1
        }
    }

    var isNull: Bool {
        if case .null = tokens[index] { return true }
        return false
    }

    func object() throws(JSONTapeMismatch) -> JSONTapeObject {
        guard case .object(let end) = tokens[index] else { throw JSONTapeMismatch() }
        return JSONTapeObject(bytes: bytes, tokens: tokens, index: index, end: end)
    }

    func string() throws(JSONTapeMismatch) -> String {
        guard case .string(let start, let end, let plain) = tokens[index] else { throw JSONTapeMismatch() }
        if plain { return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) }
        guard let text = JSONTape.decodeString(bytes, start: start, end: end) else { throw JSONTapeMismatch() }
        return text
    }

    func bool() throws(JSONTapeMismatch) -> Bool {
        guard case .bool(let value) = tokens[index] else { throw JSONTapeMismatch() }
        return value
    }

    /// Plain digits only: `-`, a fraction or an exponent is left to `JSONDecoder`.
    func unsigned() throws(JSONTapeMismatch) -> UInt64 {
        guard case .number(let start, let end, true) = tokens[index], bytes[start] != UInt8(ascii: "-") else {
            throw JSONTapeMismatch()
        }
        return try Self.magnitude(bytes, start: start, end: end)
    }

    /// Plain digits with an optional `-` (not `-0`).
    func signed() throws(JSONTapeMismatch) -> Int64 {
        guard case .number(let start, let end, true) = tokens[index] else { throw JSONTapeMismatch() }
        guard bytes[start] == UInt8(ascii: "-") else {
            guard let value = Int64(exactly: try Self.magnitude(bytes, start: start, end: end)) else { throw JSONTapeMismatch() }
            return value
        }
        let magnitude = try Self.magnitude(bytes, start: start + 1, end: end)
        guard magnitude != 0, magnitude <= UInt64(Int64.max) + 1 else { throw JSONTapeMismatch() }
        return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
    }

    private static func magnitude(_ bytes: UnsafeRawBufferPointer, start: Int, end: Int) throws(JSONTapeMismatch) -> UInt64 {
        var value: UInt64 = 0
        for i in start..<end {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[i] &- UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw JSONTapeMismatch() }
            value = sum
        }
        return value
    }

    /// The elements of an array.
    func array<Element: JSONTapeDecodable>(of type: Element.Type = Element.self) throws(JSONTapeMismatch) -> [Element] {
        guard case .array(let end) = tokens[index] else { throw JSONTapeMismatch() }
        var elements: [Element] = []
        var i = index + 1
        while i < end {
            let element = JSONTapeValue(bytes: bytes, tokens: tokens, index: i)
            elements.append(try Element(tape: element))
            i = element.next
        }
        return elements
    }
}
