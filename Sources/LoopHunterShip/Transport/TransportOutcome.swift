import Foundation

/// What became of one request: an HTTP answer, or none.
public enum TransportOutcome: Sendable, Equatable {
    /// `headers` by lower-case name (repeated headers joined with ", "); `body` at most 64 KiB.
    case response(status: Int, headers: [String: String], body: Data)
    case failed(TransportFailure)
}
