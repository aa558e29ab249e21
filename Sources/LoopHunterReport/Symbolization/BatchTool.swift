import Foundation

/// Runs an external tool once with many input lines and collects its output lines: the batch
/// mode every symbolization step uses (one process per run, not one per frame). Input goes
/// through a temporary file and output to another, so no pipe can fill up and block either side.
enum BatchTool {
    /// The tool's stdout lines, or nil when it could not run or did not finish within `timeout`.
    static func run(_ tool: String, arguments: [String], input: [String], timeout: TimeInterval = 120) -> [String]? {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("loophunter-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)) != nil else {
            return nil
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        let inURL = dir.appendingPathComponent("in"), outURL = dir.appendingPathComponent("out")
        guard (try? (input.joined(separator: "\n") + "\n").write(to: inURL, atomically: false, encoding: .utf8)) != nil,
              FileManager.default.createFile(atPath: outURL.path, contents: nil),
              let stdin = try? FileHandle(forReadingFrom: inURL),
              let stdout = try? FileHandle(forWritingTo: outURL) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do { try process.runWithDefaultSignalMask() } catch { return nil }
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            return nil
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0,
              let text = try? String(contentsOf: outURL, encoding: .utf8) else { return nil }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
