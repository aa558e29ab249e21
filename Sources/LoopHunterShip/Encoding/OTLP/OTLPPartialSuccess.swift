import Foundation
import SwiftProtobuf

/// `ExportLogsPartialSuccess`: the collector took the request but dropped some records.
public struct OTLPPartialSuccess: Sendable, Equatable {
    public let rejectedLogRecords: Int64
    public let errorMessage: String?

    public init(rejectedLogRecords: Int64, errorMessage: String?) {
        self.rejectedLogRecords = rejectedLogRecords
        self.errorMessage = errorMessage
    }

    /// The partial success in a 2xx answer's `ExportLogsServiceResponse`, nil when there is none
    /// (an empty body, an empty response, or a body that is not a response). The answer is read
    /// in the encoding its `Content-Type` names; without one, in the request's, unless it is
    /// plainly JSON.
    public static func of(_ body: Data, contentType: String?, requestEncoding: OTLPEncoding) -> OTLPPartialSuccess? {
        guard !body.isEmpty else { return nil }
        let type = contentType?.lowercased() ?? ""
        let binary = type.contains("protobuf")
            || (!type.contains("json") && requestEncoding == .protobuf && body.first != UInt8(ascii: "{"))
        let response: Opentelemetry_Proto_Collector_Logs_V1_ExportLogsServiceResponse
        do {
            if binary {
                response = try .init(serializedBytes: body)
            } else {
                var options = JSONDecodingOptions()
                options.ignoreUnknownFields = true
                response = try .init(jsonUTF8Data: body, options: options)
            }
        } catch {
            return nil
        }
        guard response.hasPartialSuccess else { return nil }
        let partial = response.partialSuccess
        return OTLPPartialSuccess(rejectedLogRecords: partial.rejectedLogRecords,
                                  errorMessage: partial.errorMessage.isEmpty ? nil : partial.errorMessage)
    }
}
