import Foundation

/// OTLP's retry rules: retry only connection errors, 429, 502, 503 and 504; exponential backoff
/// with jitter; honour Retry-After; never retry another 4xx; give up (keeping the reports
/// pending) after `retryFor` seconds without a delivery.
public struct RetryPolicy: Sendable, Equatable {
    /// First backoff, seconds.
    public var initialDelay: Double
    /// Longest backoff, seconds.
    public var maximumDelay: Double
    public var multiplier: Double
    /// Each delay is drawn uniformly within ±jitter of its value (0.5: between 50% and 150%).
    public var jitter: Double
    /// Seconds without a delivery after which shipping stops, the reports left pending.
    public var retryFor: Double

    public init(initialDelay: Double = 1, maximumDelay: Double = 30, multiplier: Double = 2, jitter: Double = 0.5,
                retryFor: Double = 300) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.retryFor = retryFor
    }

    /// The statuses OTLP/HTTP says to retry.
    public static let retryableStatuses: Set<Int> = [429, 502, 503, 504]
    /// Statuses that refuse the content itself.
    public static let refusingStatuses: Set<Int> = [400, 413, 422]

    /// The backoff before retry number `attempt` (1 for the first retry).
    public func backoff(attempt: Int, using generator: inout some RandomNumberGenerator) -> Double {
        let exponent = Double(max(0, attempt - 1))
        let base = min(maximumDelay, initialDelay * pow(multiplier, exponent))
        let spread = base * jitter
        return max(0, min(maximumDelay, Double.random(in: (base - spread)...(base + spread), using: &generator)))
    }

    public func backoff(attempt: Int) -> Double {
        var generator = SystemRandomNumberGenerator()
        return backoff(attempt: attempt, using: &generator)
    }

    /// The verdict on an outcome. `gzipped`: whether the body was compressed; `encoding`: the
    /// OTLP encoding of the body (for the OTLP format).
    public func verdict(for outcome: TransportOutcome, gzipped: Bool, format: PayloadFormat, encoding: OTLPEncoding = .protobuf,
                        now: Date = Date()) -> DeliveryVerdict {
        switch outcome {
        case .failed(.connection(let why)):
            return .retry(after: nil, reason: "cannot reach the collector (\(why)): is it running, and is the URL right?")
        case .failed(.timeout(let why)):
            return .retry(after: nil, reason: why)
        case .failed(.tls(let why)):
            return .collectorUnusable(reason: "the TLS handshake failed (\(why)): the collector's certificate is not trusted "
                                      + "or does not name the host; give its CA with --ca-file (or, knowingly, --insecure)")
        case .response(let status, let headers, let body):
            let said = Self.statusText(status) + Self.excerpt(Self.readableBody(body, headers: headers))
            switch status {
            case 200..<300:
                if format == .otlp,
                   let partial = OTLPPartialSuccess.of(body, contentType: headers["content-type"], requestEncoding: encoding),
                   partial.rejectedLogRecords > 0 || partial.errorMessage != nil {
                    return .delivered(partiallyRejected: partial.rejectedLogRecords, message: partial.errorMessage)
                }
                return .delivered(partiallyRejected: 0, message: nil)
            case let status where Self.retryableStatuses.contains(status):
                let after = headers["retry-after"].flatMap { RetryAfter.seconds($0, now: now) }
                return .retry(after: after, reason: "the collector answered \(said)")
            case 415 where gzipped:
                return .compressionRefused
            case let status where Self.refusingStatuses.contains(status):
                return .refused(reason: "the collector answered \(said)")
            case 300..<400:
                let location = headers["location"].map { " to \($0)" } ?? ""
                return .collectorUnusable(reason: "the collector answered \(Self.statusText(status))\(location); redirects are not "
                                          + "followed (they could carry the token elsewhere): give the final URL")
            case 401, 403:
                return .collectorUnusable(reason: "the collector answered \(said): check the token (--token-file or --token-env)")
            case 404, 405:
                return .collectorUnusable(reason: "the collector answered \(said): check the URL's path"
                                          + (format == .otlp ? " (OTLP/HTTP logs are posted to /v1/logs)" : ""))
            case 415:
                let advice = switch (format, encoding) {
                case (.otlp, .protobuf): "it does not take OTLP protobuf bodies; try --otlp-encoding json"
                case (.otlp, .json): "it does not take OTLP/JSON bodies; try --otlp-encoding protobuf (OTLP/HTTP's default), or check --format"
                case (.json, _): "it does not take JSON bodies; check --format"
                }
                return .collectorUnusable(reason: "the collector answered \(said): \(advice)")
            case 400..<500:
                return .collectorUnusable(reason: "the collector answered \(said)")
            default:
                return .held(reason: "the collector answered \(said)")
            }
        }
    }

    /// `503 Service Unavailable`.
    public static func statusText(_ status: Int) -> String {
        let reason = HTTPStatusNames.reason(status)
        return reason.isEmpty ? "HTTP \(status)" : "\(status) \(reason)"
    }

    /// What a person can read of an answer's body: the message of a `google.rpc.Status` (how
    /// OTLP/HTTP collectors answer a protobuf request's errors), else the body as it is.
    public static func readableBody(_ body: Data, headers: [String: String]) -> Data {
        guard headers["content-type"]?.lowercased().contains("protobuf") == true else { return body }
        return RPCStatusMessage.message(in: body).map { Data($0.utf8) } ?? body
    }

    /// `: <first line of the body>`, made safe to print (no control characters), at most 200 characters.
    static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let clean = String(line.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : Character($0) })
            .trimmingCharacters(in: .whitespaces)
        guard !clean.isEmpty else { return "" }
        return ": " + (clean.count > 200 ? String(clean.prefix(200)) + "…" : clean)
    }
}
