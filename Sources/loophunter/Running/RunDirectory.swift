import Foundation

/// The report directory of `loophunter run`: the one given (created 0700 when missing), or a new
/// private one under $TMPDIR (or /tmp).
enum RunDirectory {
    struct Unusable: Error, CustomStringConvertible {
        let description: String
    }

    static func prepare(_ requested: String?) throws -> String {
        if let requested {
            let path = URL(fileURLWithPath: requested).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { throw Unusable(description: "--dir \(requested) is a file; give a directory") }
                return path
            }
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw Unusable(description: "--dir \(requested) cannot be created: \(error.localizedDescription)")
            }
            return path
        }
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/loophunter-run-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Unusable(description: "cannot create a report directory under \(base) (\(String(cString: strerror(errno)))); give one with --dir")
        }
        return String(cString: made)
    }
}
