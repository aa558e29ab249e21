/// One token of a ``JSONTape``: a value, or the start of an object or array. Byte positions are
/// offsets into the tape's input.
enum JSONTapeToken {
    /// An object: its keys and values follow, alternating, up to token `end` (exclusive).
    case object(end: Int)
    /// An array: its elements follow, up to token `end` (exclusive).
    case array(end: Int)
    /// A string's bytes between the quotes. `plain`: ASCII without escapes, the bytes are the
    /// string; otherwise the escapes must be decoded (the UTF-8 was checked when parsing).
    case string(start: Int, end: Int, plain: Bool)
    /// A number's bytes. `integer`: no fraction and no exponent.
    case number(start: Int, end: Int, integer: Bool)
    case bool(Bool)
    case null
}
