/// The two fields every LoopHunter file starts with, decoded before the rest so that an unknown
/// schema or major version is refused with a clear message.
struct ReportFileHeader: Decodable {
    let schema: String
    let version: String
}
