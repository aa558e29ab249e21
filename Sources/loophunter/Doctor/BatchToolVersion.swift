import Foundation
import LoopHunterReport

/// The first line a tool prints for its version flag (for `loophunter doctor`).
enum BatchToolVersion {
    static func firstLine(_ tool: String, _ flag: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [flag]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.runWithDefaultSignalMask()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && $0.lowercased().contains("version") }
    }
}
