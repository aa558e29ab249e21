import ArgumentParser
import Foundation
import LoopHunterShip

/// How to reach the collector: shared by `ship` and `run --ship` (the URL and the format are the
/// commands' own options).
struct ShipOptions: ParsableArguments {
    @Option(name: .customLong("token-file"), help: ArgumentHelp("Send the token in this file (one line; keep it chmod 600).", valueName: "file"))
    var tokenFile: String?

    @Option(name: .customLong("token-env"), help: ArgumentHelp("Send the token in this environment variable.", valueName: "variable"))
    var tokenEnv: String?

    @Option(name: .customLong("token-header"), help: ArgumentHelp("The header that carries the token: Authorization (as 'Bearer TOKEN', the default) or e.g. x-api-key (the token as it is).", valueName: "name"))
    var tokenHeader = "Authorization"

    @Option(name: .customLong("ca-file"), help: ArgumentHelp("Also trust the CA certificates in this PEM file (a private collector).", valueName: "pem"))
    var caFile: String?

    @Flag(help: "Do not check the collector's TLS certificate (prints a warning; anyone on the path can then read the reports and the token).")
    var insecure = false

    @Option(name: .customLong("otlp-encoding"), help: ArgumentHelp("OTLP bodies in protobuf (OTLP/HTTP's default, Content-Type application/x-protobuf) or json (OTLP/JSON, application/json); the same records either way. Default: protobuf.", valueName: "protobuf|json"))
    var otlpEncoding: OTLPEncoding?

    @Option(help: "gzip request bodies: auto (when the collector takes it), gzip, none.")
    var compression: CompressionMode = .auto

    @Option(name: .customLong("batch-size"), help: "OTLP: reports per request at most (1-10000).")
    var batchSize = 512

    @Option(name: .customLong("max-request-bytes"), help: "Uncompressed bytes per request at most (65536-67108864).")
    var maxRequestBytes = 4 << 20

    @Option(help: "Requests in flight at once (1-64).")
    var concurrency = 2

    @Option(name: .customLong("request-timeout"), help: ArgumentHelp("Seconds one request may take before it is tried again (1-600).", valueName: "seconds"))
    var requestTimeout: Double = 10

    @Option(name: .customLong("retry-for"), help: ArgumentHelp("Seconds to keep retrying without a delivery before leaving the rest pending (0-86400; default 300 for ship, 30 for run).", valueName: "seconds"))
    var retryFor: Double?

    func validate() throws {
        if tokenFile != nil && tokenEnv != nil {
            throw ValidationError("give the token one way: --token-file or --token-env, not both")
        }
        if tokenHeader.isEmpty || tokenHeader.contains(where: { $0 == ":" || $0.isWhitespace || !$0.isASCII }) {
            throw ValidationError("--token-header \(tokenHeader): not a header name; use e.g. Authorization or x-api-key")
        }
        try RunCommand.check(batchSize, "--batch-size", 1...10_000, "reports per request")
        try RunCommand.check(maxRequestBytes, "--max-request-bytes", 65_536...(64 << 20), "bytes per request")
        try RunCommand.check(concurrency, "--concurrency", 1...64, "requests in flight")
        guard (1...600).contains(requestTimeout) else {
            throw ValidationError("--request-timeout must be between 1 and 600 seconds (got \(requestTimeout))")
        }
        if let retryFor, !(0...86_400).contains(retryFor) {
            throw ValidationError("--retry-for must be between 0 and 86400 seconds (got \(retryFor))")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("--ca-file \(caFile): no such readable file; give the PEM file of the CA that signed the collector's certificate")
        }
    }

    /// Checks the URL and the token without printing anything (for `validate()`, so that a bad
    /// input is reported with the command's usage).
    func checkInputs(url: String, option: String, format: PayloadFormat) throws {
        if format == .json, let otlpEncoding {
            throw ValidationError("--otlp-encoding \(otlpEncoding.rawValue) applies to the OTLP format; the json format sends each "
                                  + "report file as it is: drop --otlp-encoding, or ship with the otlp format")
        }
        do {
            _ = try CollectorEndpoint.parse(url, format: format, option: option)
            if let tokenFile { _ = try CollectorToken.fromFile(tokenFile) }
            if let tokenEnv { _ = try CollectorToken.fromEnvironment(tokenEnv) }
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The shipping configuration for `url` (given with `option`), or a ValidationError naming the
    /// bad input. Warnings (an insecure connection, a token file others can read, a token sent in
    /// clear) are printed here.
    func configuration(url: String, option: String, format: PayloadFormat, retryForDefault: Double,
                       version: String) throws -> ShipConfiguration {
        let endpoint: CollectorEndpoint
        do {
            endpoint = try CollectorEndpoint.parse(url, format: format, option: option)
        } catch {
            throw ValidationError(error.description)
        }
        var configuration = ShipConfiguration(endpoint: endpoint, format: format, version: version)
        do {
            if let tokenFile {
                let (token, warning) = try CollectorToken.fromFile(tokenFile)
                configuration.token = token
                if let warning { Diagnostics.say("warning: \(warning)") }
            } else if let tokenEnv {
                configuration.token = try CollectorToken.fromEnvironment(tokenEnv)
            }
        } catch {
            throw ValidationError(error.description)
        }
        if configuration.token != nil && !endpoint.usesTLS && !endpoint.isLoopback {
            Diagnostics.say("warning: \(option) \(endpoint.url) is plain http: the token and the reports cross the network unencrypted; use https://")
        }
        if insecure {
            Diagnostics.say("warning: --insecure: the collector's TLS certificate is not checked; anyone on the network path can read the reports"
                            + (configuration.token == nil ? "" : " and the token"))
        }
        configuration.tokenHeader = tokenHeader
        configuration.tls = TLSOptions(verify: !insecure, caFile: caFile)
        configuration.otlpEncoding = otlpEncoding ?? .protobuf
        configuration.compression = compression
        configuration.batchSize = batchSize
        configuration.maxRequestBytes = maxRequestBytes
        configuration.concurrency = concurrency
        configuration.requestTimeout = requestTimeout
        configuration.retry.retryFor = retryFor ?? retryForDefault
        return configuration
    }
}
