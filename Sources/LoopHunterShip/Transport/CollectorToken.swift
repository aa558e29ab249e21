import Foundation

/// The collector's credential, read from a file or an environment variable, never from the
/// command line (which every user of the machine can read in /proc). It never prints: its
/// descriptions and mirror show only that it is there.
public struct CollectorToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let secret: String

    private init(secret: String) {
        self.secret = secret
    }

    public var description: String { "<token, not shown>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: []) }

    /// The value of the header that carries it: `Bearer TOKEN` in `Authorization`, the token as
    /// it is in any other header.
    public func headerValue(for header: String) -> String {
        header.lowercased() == "authorization" ? "Bearer \(secret)" : secret
    }

    /// Reads the token from `path`: the file's content without surrounding white space, one line.
    /// `warning` is set when others may read the file.
    public static func fromFile(_ path: String) throws(ShipInputError) -> (token: CollectorToken, warning: String?) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            let code = errno
            if code == ENOENT {
                throw ShipInputError("--token-file \(path): no such file; write the collector's token into it "
                                     + "(chmod 600 \(path)), or give it with --token-env VARIABLE")
            }
            throw ShipInputError("--token-file \(path): cannot be read (\(POSIXFiles.reason(code))); check the path and its permissions")
        }
        guard POSIXFiles.isRegular(st) else {
            throw ShipInputError("--token-file \(path): not a regular file; give the file that holds the token")
        }
        guard st.st_size <= 65_536 else {
            throw ShipInputError("--token-file \(path): \(st.st_size) bytes is too large for a token; give the file that holds only the token")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ShipInputError("--token-file \(path): cannot be read (\(POSIXFiles.reason(errno))); check its permissions")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ShipInputError("--token-file \(path): not text; put only the token in it")
        }
        let token = try validated(text, source: "--token-file \(path)")
        let warning = st.st_mode & 0o077 != 0
            ? "--token-file \(path) can be read by other users (mode \(String(st.st_mode & 0o777, radix: 8))); chmod 600 \(path)"
            : nil
        return (token, warning)
    }

    /// Reads the token from the environment variable `name`.
    public static func fromEnvironment(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ShipInputError) -> CollectorToken {
        guard !name.isEmpty, !name.contains("=") else {
            throw ShipInputError("--token-env needs the name of an environment variable (e.g. --token-env LH_TOKEN), not its value")
        }
        guard let value = environment[name] else {
            throw ShipInputError("--token-env \(name): the variable is not set; export \(name) with the collector's token first")
        }
        return try validated(value, source: "--token-env \(name)")
    }

    private static func validated(_ text: String, source: String) throws(ShipInputError) -> CollectorToken {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw ShipInputError("\(source) is empty; it must hold the collector's token") }
        guard !token.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw ShipInputError("\(source) holds more than one line or control characters; put only the token in it")
        }
        return CollectorToken(secret: token)
    }
}
