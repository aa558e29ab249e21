/// `ExportLogsServiceResponse` in JSON: empty on full success.
public struct OTLPExportLogsResponse: Decodable, Sendable, Equatable {
    public let partialSuccess: OTLPPartialSuccess?
}
