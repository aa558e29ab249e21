import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// Posts request bodies to the collector with AsyncHTTPClient: pooled keep-alive connections,
/// HTTP/1.1 or HTTP/2, TLS through SwiftNIO SSL. It does not retry (the shipper's policy does),
/// does not follow redirects (a redirect could carry the token to another host), and never logs.
public final class HTTPTransport: Sendable {
    private let client: HTTPClient
    private let endpoint: CollectorEndpoint
    private let token: CollectorToken?
    private let tokenHeader: String
    private let timeout: TimeAmount
    private let userAgent: String

    /// Largest response body kept (a rejected report's reason is cut there).
    public static let responseLimit = 64 * 1024

    public init(endpoint: CollectorEndpoint, token: CollectorToken?, tokenHeader: String = "Authorization",
                tls: TLSOptions, timeoutSeconds: Double, userAgent: String) {
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        if !tls.verify { tlsConfiguration.certificateVerification = .none }
        if let caFile = tls.caFile { tlsConfiguration.additionalTrustRoots = [.file(caFile)] }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tlsConfiguration,
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(Int64(max(1, min(timeoutSeconds, 10)).rounded(.up)))),
            decompression: .disabled)
        // Each failure reaches the retry policy at once (AsyncHTTPClient would otherwise retry a
        // refused connection by itself until the connect timeout).
        configuration.connectionPool.retryConnectionEstablishment = false
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.endpoint = endpoint
        self.token = token
        self.tokenHeader = tokenHeader
        self.timeout = .nanoseconds(Int64(timeoutSeconds * 1e9))
        self.userAgent = userAgent
    }

    /// Sends one body of the given `Content-Type`; never throws: every failure is a
    /// ``TransportOutcome/failed(_:)``.
    public func post(_ body: Data, contentType: String, headers extra: [(name: String, value: String)], gzip: Bool) async -> TransportOutcome {
        var request = HTTPClientRequest(url: endpoint.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        request.headers.add(name: "User-Agent", value: userAgent)
        if let token { request.headers.add(name: tokenHeader, value: token.headerValue(for: tokenHeader)) }
        for header in extra { request.headers.add(name: header.name, value: header.value) }
        if gzip, let compressed = GzipCoding.compress(body) {
            request.headers.add(name: "Content-Encoding", value: "gzip")
            request.body = .bytes(compressed)
        } else {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(request, deadline: .now() + timeout)
            var collected = Data()
            do {
                for try await chunk in response.body {
                    if collected.count < Self.responseLimit {
                        collected.append(contentsOf: chunk.readableBytesView.prefix(Self.responseLimit - collected.count))
                    }
                }
            } catch {
                // The status line arrived; a body cut short still tells what the collector said.
            }
            var headers: [String: String] = [:]
            for (name, value) in response.headers {
                let key = name.lowercased()
                headers[key] = headers[key].map { "\($0), \(value)" } ?? value
            }
            return .response(status: Int(response.status.code), headers: headers, body: collected)
        } catch {
            return .failed(Self.classify(error, at: "\(endpoint.host):\(endpoint.port)"))
        }
    }

    /// Closes the pooled connections.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Sorts an error into the three kinds the retry policy tells apart, in words for people:
    /// `collector:4318: connection refused`.
    static func classify(_ error: any Error, at address: String) -> TransportFailure {
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
            return .tls(String(describing: error))
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                return .timeout("\(address): no answer within the request timeout")
            case .connectTimeout:
                return .connection("\(address): connecting timed out")
            case .tlsHandshakeTimeout:
                return .connection("\(address): the TLS handshake timed out")
            case .remoteConnectionClosed:
                return .connection("\(address): the connection was closed before an answer")
            default:
                return .connection("\(address): \(error.description)")
            }
        }
        if let error = error as? IOError {
            return .connection("\(address): \(String(cString: strerror(error.errnoCode)).lowercased())")
        }
        let text = String(describing: error)
        if text.contains("UnknownHost") || text.contains("Name or service not known") {
            return .connection("\(address): unknown host")
        }
        return .connection("\(address): \(text)")
    }
}
