/// A strict JSON tokenizer: the input as a flat list of tokens, parsed in one pass into one
/// array, for the fast report path (``ReportFile``).
///
/// Why it exists: `JSONDecoder` spends most of its time in generic metadata lookups and
/// reference counting per key, which made reading 10,000 reports cost seconds (issue 3's
/// budget is 2 s end to end). A report is a few hundred values; walking tokens is far cheaper.
///
/// It accepts only what RFC 8259 allows, and less: no byte order mark, no unescaped control
/// characters, no lone surrogates, valid UTF-8 everywhere, at most ``maximumDepth`` levels.
/// Anything it refuses goes to `JSONDecoder` (which is more lenient), so refusing too much only
/// costs time, never a different result.
struct JSONTape {
    /// The input; the tape's tokens point into it, so it must outlive them.
    let bytes: UnsafeRawBufferPointer
    private(set) var tokens: [JSONTapeToken] = []
    private var at = 0

    /// Reports nest five levels deep at most; deeper input is left to `JSONDecoder`.
    static let maximumDepth = 32

    /// Parses `bytes`, one JSON value with optional white space around it; nil when it is not one.
    init?(parsing bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        // About one token per 16 bytes of an indented report.
        tokens.reserveCapacity(bytes.count / 16 + 16)
        guard value(depth: 0) else { return nil }
        skipSpace()
        guard at == bytes.count else { return nil }
    }

    private mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x0a, 0x0d, 0x09: at += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) -> Bool {
        skipSpace()
        guard at < bytes.count else { return false }
        switch bytes[at] {
        case UInt8(ascii: "{"): return container(depth: depth, close: UInt8(ascii: "}"), keyed: true)
        case UInt8(ascii: "["): return container(depth: depth, close: UInt8(ascii: "]"), keyed: false)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    /// An object (`keyed`: `"key": value` pairs) or an array; `at` is on its opening bracket.
    private mutating func container(depth: Int, close: UInt8, keyed: Bool) -> Bool {
        guard depth < Self.maximumDepth else { return false }
        let start = tokens.count
        tokens.append(.null) // replaced once the end is known
        at += 1
        skipSpace()
        if at < bytes.count, bytes[at] == close {
            at += 1
        } else {
            while true {
                if keyed {
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), string() else { return false }
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return false }
                    at += 1
                }
                guard value(depth: depth + 1) else { return false }
                skipSpace()
                guard at < bytes.count else { return false }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                } else if bytes[at] == close {
                    at += 1
                    break
                } else {
                    return false
                }
            }
        }
        tokens[start] = keyed ? .object(end: tokens.count) : .array(end: tokens.count)
        return true
    }

    private mutating func literal(_ word: StaticString, _ token: JSONTapeToken) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - at >= count else { return false }
        for i in 0..<count where bytes[at + i] != word.utf8Start[i] { return false }
        at += count
        tokens.append(token)
        return true
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func number() -> Bool {
        let start = at
        var integer = true
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, isDigit(bytes[at]) else { return false }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
        } else {
            skipDigits()
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            integer = false
            at += 1
            guard at < bytes.count, isDigit(bytes[at]) else { return false }
            skipDigits()
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            integer = false
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard at < bytes.count, isDigit(bytes[at]) else { return false }
            skipDigits()
        }
        tokens.append(.number(start: start, end: at, integer: integer))
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while at < bytes.count, isDigit(bytes[at]) { at += 1 }
    }

    /// `at` is on the opening quote. A string with escapes or non-ASCII bytes is decoded once here
    /// to check it (rare in reports: messages, names); a plain one is only scanned.
    private mutating func string() -> Bool {
        at += 1
        let start = at
        var plain = true
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                tokens.append(.string(start: start, end: at, plain: plain))
                at += 1
                return plain || Self.decodeString(bytes, start: start, end: at - 1) != nil
            }
            if byte < 0x20 { return false }
            if byte == UInt8(ascii: "\\") {
                plain = false
                at += 1 // the escaped character is checked by decodeString; a quote here is not the end
            } else if byte >= 0x80 {
                plain = false
            }
            at += 1
        }
        return false
    }

    /// The string between `start` and `end` (exclusive) with its escapes decoded, or nil when an
    /// escape is invalid, a surrogate is alone or the UTF-8 is not valid.
    static func decodeString(_ bytes: UnsafeRawBufferPointer, start: Int, end: Int) -> String? {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(end - start)
        var i = start
        func hex4() -> UInt32? {
            guard end - i >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[i]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                i += 1
            }
            return value
        }
        while i < end {
            let byte = bytes[i]
            i += 1
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                continue
            }
            guard i < end else { return nil }
            let escape = bytes[i]
            i += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0c)
            case UInt8(ascii: "n"): utf8.append(0x0a)
            case UInt8(ascii: "r"): utf8.append(0x0d)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4() else { return nil }
                if (0xd800..<0xdc00).contains(code) {
                    guard end - i >= 6, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { return nil }
                    i += 2
                    guard let low = hex4(), (0xdc00..<0xe000).contains(low) else { return nil }
                    code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)
                }
                guard let scalar = Unicode.Scalar(code) else { return nil } // a lone low surrogate
                utf8.append(contentsOf: String(scalar).utf8)
            default:
                return nil
            }
        }
        return String(validating: utf8, as: UTF8.self)
    }
}
