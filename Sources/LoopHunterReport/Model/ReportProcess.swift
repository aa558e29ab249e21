/// The process a report or summary came from.
public struct ReportProcess: Codable, Sendable, Equatable {
    public let pid: Int
    public let ppid: Int
    /// Resolved path of the executable (`/proc/self/exe`); never the command line.
    public let executable: String
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ReportProcess: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        pid = try json.decode(CodingKeys.pid)
        ppid = try json.decode(CodingKeys.ppid)
        executable = try json.decode(CodingKeys.executable)
    }
}
