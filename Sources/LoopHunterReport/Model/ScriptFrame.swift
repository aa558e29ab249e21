/// A frame of an interpreter's own stack (Python, JavaScript), as the interpreter named it when a
/// layout request was made (a report's ``ScriptStack/frames``).
public struct ScriptFrame: Codable, Sendable, Equatable {
    /// The function: Python's qualified name (`PingLabel.do_size_allocate`), JavaScript's display
    /// name (`pingIdle`), or `<TOP LEVEL>`.
    public let function: String
    /// The script's file, as the interpreter knows it (a JavaScript file may be relative to the
    /// program's working directory).
    public let file: String
    /// The line running in that function (the call that led to the request); nil when unknown.
    public let line: Int?
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ScriptFrame: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        function = try json.decode(CodingKeys.function)
        file = try json.decode(CodingKeys.file)
        line = try json.decodeIfPresent(CodingKeys.line)
    }
}
