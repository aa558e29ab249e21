import Foundation

/// Turns the source paths of debug information into SARIF artifact locations: a file under the
/// source root becomes a URI relative to `SRCROOT` (what code-scanning UIs match against the
/// repository), any other absolute path an absolute `file://` URI, and a relative path (as some
/// builds record them) a relative URI, which consumers such as GitHub resolve against the
/// repository root. Paths are normalized lexically (`.` and `..`), never against the file system,
/// and every byte outside RFC 3986's unreserved characters and sub-delimiters is percent-encoded.
struct SARIFSourceMapper: Sendable {
    static let baseID = "SRCROOT"

    /// The root's normalized components, nil without a root.
    let root: [String]?

    /// A relative `sourceRoot` is taken relative to `currentDirectory` (the process's working
    /// directory, which is what a user who typed `--source-root .` means).
    init(sourceRoot: String?, currentDirectory: @autoclosure () -> String = FileManager.default.currentDirectoryPath) {
        guard let sourceRoot, !sourceRoot.isEmpty else {
            root = nil
            return
        }
        root = Self.components(sourceRoot.hasPrefix("/") ? sourceRoot : currentDirectory() + "/" + sourceRoot)
    }

    /// `SRCROOT` → `file:///the/root/`, when there is a root.
    var originalUriBaseIds: [String: SARIFArtifactLocation]? {
        guard let root else { return nil }
        return [Self.baseID: SARIFArtifactLocation(uri: Self.fileURI(root, directory: true))]
    }

    func artifactLocation(ofFile path: String) -> SARIFArtifactLocation {
        guard path.hasPrefix("/") else {
            let parts = Self.components(path)
            return SARIFArtifactLocation(uri: parts.isEmpty ? "." : parts.map(Self.percentEncoded).joined(separator: "/"))
        }
        let parts = Self.components(path)
        if let root, parts.count > root.count, Array(parts.prefix(root.count)) == root {
            return SARIFArtifactLocation(uri: parts.dropFirst(root.count).map(Self.percentEncoded).joined(separator: "/"),
                                         uriBaseId: Self.baseID)
        }
        return SARIFArtifactLocation(uri: Self.fileURI(parts, directory: false))
    }

    /// Lexically normalized: empty and `.` segments dropped, `..` cancelling the segment before
    /// it (kept at the start of a relative path, dropped at the root of an absolute one).
    static func components(_ path: String) -> [String] {
        let absolute = path.hasPrefix("/")
        var parts: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            switch segment {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append("..") }
            default: parts.append(segment)
            }
        }
        return parts
    }

    static func fileURI(_ parts: [String], directory: Bool) -> String {
        let path = parts.map(percentEncoded).joined(separator: "/")
        return "file:///" + path + (directory && !parts.isEmpty ? "/" : "")
    }

    /// RFC 3986 `pchar` minus `:` (which a relative URI's first segment must not contain).
    static func percentEncoded(_ segment: String) -> String {
        var out = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where "-._~!$&'()*+,;=@".utf8.contains(byte):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
