import Foundation

/// The collector's URL, checked: http or https, a host, no credentials in it. For OTLP a URL
/// with no path gets OTLP/HTTP's logs path, `/v1/logs` (as OTEL_EXPORTER_OTLP_ENDPOINT does); a
/// URL with a path is used as it is (as OTEL_EXPORTER_OTLP_LOGS_ENDPOINT is).
public struct CollectorEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// The URL requests are posted to.
    public let url: String
    public let host: String
    public let port: Int
    public let usesTLS: Bool

    /// The OTLP/HTTP path of logs.
    public static let otlpLogsPath = "/v1/logs"

    /// `option` names the command-line option in messages (`--to`, `--ship`).
    public static func parse(_ text: String, format: PayloadFormat, option: String = "--to") throws(ShipInputError) -> CollectorEndpoint {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw ShipInputError("\(option) is empty; give the collector's URL, e.g. \(option) http://collector:4318")
        }
        guard trimmed.contains("://") else {
            throw ShipInputError("\(option) \(text): no scheme; write it as http://\(trimmed) (or https://\(trimmed))")
        }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw ShipInputError("\(option) \(text): not a URL; write it as http://HOST:PORT/PATH")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ShipInputError("\(option) \(text): the scheme \(scheme):// is not supported; use http:// or https:// "
                                 + "(OTLP/HTTP collectors listen on port 4318)")
        }
        guard components.user == nil && components.password == nil else {
            throw ShipInputError("\(option): credentials in the URL are refused (they would show in logs and process lists); "
                                 + "remove them and give the token with --token-file or --token-env")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ShipInputError("\(option) \(text): no host; write it as \(scheme)://HOST:PORT")
        }
        var normalized = components
        normalized.scheme = scheme
        if format == .otlp && (components.path.isEmpty || components.path == "/") {
            normalized.path = otlpLogsPath
        } else if components.path.isEmpty {
            normalized.path = "/"
        }
        guard let url = normalized.string else {
            throw ShipInputError("\(option) \(text): not a URL; write it as http://HOST:PORT/PATH")
        }
        return CollectorEndpoint(url: url, host: host, port: components.port ?? (scheme == "https" ? 443 : 80),
                                 usesTLS: scheme == "https")
    }

    /// Whether the host is this machine (plain http to it does not cross a network).
    public var isLoopback: Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    public var description: String { url }
}
