/// One request as the test collector logged it.
struct ShipCollectorEntry: Decodable {
    /// 1 for the first request.
    let n: Int
    /// The status answered; nil for a reset connection.
    let status: Int?
    /// The ids the body carried (OTLP: log.record.uid), when it decoded.
    let ids: [String]?
    let gzip: Bool
    /// Why the decoder refused the body (malformed OTLP, a wrong Idempotency-Key).
    let error: String?
    /// The token header as received.
    let auth: String?
    let step: String
    let stalled: Bool?
    let canaryInBody: Bool?
    let bytes: Int

    enum CodingKeys: String, CodingKey {
        case n, status, ids, gzip, error, auth, step, stalled, bytes
        case canaryInBody = "canary_in_body"
    }

    init(from decoder: any Decoder) throws {
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
    }

    /// The collector took the ids (a stalled answer commits first, then answers too late).
    var accepted: Bool { (status.map { (200..<300).contains($0) } ?? false) }
}
