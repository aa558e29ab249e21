/// One request as the test collector logged it.
package struct ShipCollectorEntry: Decodable {
    /// 1 for the first request.
    package let n: Int
    /// The status answered; nil for a reset connection.
    package let status: Int?
    /// The ids the body carried (OTLP: log.record.uid), when it decoded.
    package let ids: [String]?
    package let gzip: Bool
    /// Why the decoder refused the body (malformed OTLP, a wrong Idempotency-Key).
    package let error: String?
    /// The token header as received.
    package let auth: String?
    package let step: String
    package let stalled: Bool?
    package let canaryInBody: Bool?
    package let bytes: Int
    /// OTLP: the body's encoding as its Content-Type named it (`protobuf`, `json`).
    package let encoding: String?

    enum CodingKeys: String, CodingKey {
        case n, status, ids, gzip, error, auth, step, stalled, bytes, encoding
        case canaryInBody = "canary_in_body"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        n = try container.decode(Int.self, forKey: .n)
        status = try? container.decode(Int.self, forKey: .status) // "reset" is not a number
        ids = try container.decodeIfPresent([String].self, forKey: .ids)
        gzip = try container.decode(Bool.self, forKey: .gzip)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        auth = try container.decodeIfPresent(String.self, forKey: .auth)
        step = try container.decode(String.self, forKey: .step)
        stalled = try container.decodeIfPresent(Bool.self, forKey: .stalled)
        canaryInBody = try container.decodeIfPresent(Bool.self, forKey: .canaryInBody)
        bytes = try container.decode(Int.self, forKey: .bytes)
        encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
    }

    /// The collector took the ids (a stalled answer commits first, then answers too late).
    package var accepted: Bool { (status.map { (200..<300).contains($0) } ?? false) }
}
