/// `ExportLogsPartialSuccess`: the collector took the request but dropped some records.
public struct OTLPPartialSuccess: Decodable, Sendable, Equatable {
    public let rejectedLogRecords: Int64
    public let errorMessage: String?

    enum CodingKeys: String, CodingKey {
        case rejectedLogRecords, errorMessage
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // proto3 JSON writes int64 as a string; some servers write a number.
        if let text = try? container.decodeIfPresent(String.self, forKey: .rejectedLogRecords) {
            rejectedLogRecords = Int64(text) ?? 0
        } else {
            rejectedLogRecords = try container.decodeIfPresent(Int64.self, forKey: .rejectedLogRecords) ?? 0
        }
        errorMessage = try container.decodeIfPresent(String.self, forKey: .errorMessage)
    }
}
