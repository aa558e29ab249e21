/// What a `heap-growth` report adds: the run of iterations over which the live heap grew.
public struct HeapGrowth: Codable, Sendable, Equatable {
    /// Growing iterations in the run (iterations within the noise neither count nor break it).
    public let iterations: UInt64
    /// The live heap when the run started; the report's `alloc.liveBytes` is where it got to.
    public let startLiveBytes: UInt64

    enum CodingKeys: String, CodingKey {
        case iterations
        case startLiveBytes = "start_live_bytes"
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension HeapGrowth: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        iterations = try json.decode(CodingKeys.iterations)
        startLiveBytes = try json.decode(CodingKeys.startLiveBytes)
    }
}
