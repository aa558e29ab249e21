/// How the collector's certificate is checked. Verified against the system's trust store by
/// default; `caFile` adds a CA (a private collector); `verify = false` is `--insecure`.
public struct TLSOptions: Sendable, Equatable {
    public var verify: Bool
    /// PEM file of extra CA certificates to trust.
    public var caFile: String?

    public init(verify: Bool = true, caFile: String? = nil) {
        self.verify = verify
        self.caFile = caFile
    }
}
