import Foundation
import LoopHunterReport

/// Test-side symbolization of report frames with llvm-symbolizer in batch mode (one process for
/// all frames), from module path + offset - 1. The reporter's own symbolizer supersedes this.
package enum Symbolizer {
    package struct Location: Equatable {
        package let function: String
        package let file: String
        package let line: Int
    }

    package static var path: String? {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/llvm-symbolizer" } + ["/usr/bin/llvm-symbolizer-14", "/usr/lib/llvm-14/bin/llvm-symbolizer"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    package static func symbolize(_ frames: [Frame]) throws -> [Location?] {
        // Return addresses: the call instruction is at offset - 1.
        try symbolize(modules: frames.map { frame in
            guard let module = frame.module, let text = frame.offset,
                  let offset = UInt64(text.dropFirst(2), radix: 16), offset > 0 else { return nil }
            return (module, offset - 1)
        })
    }

    /// Exact (module, offset) pairs, e.g. callbacks (function entries, symbolized at their offset).
    package static func symbolize(modules entries: [(module: String, offset: UInt64)?]) throws -> [Location?] {
        guard let path else { throw SymbolizerMissing() }
        var lines: [String] = []
        var index: [Int] = []
        for (i, entry) in entries.enumerated() {
            guard let entry else { continue }
            lines.append("CODE \(entry.module) 0x\(String(entry.offset, radix: 16))")
            index.append(i)
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("lh-sym-\(UUID().uuidString)")
        try lines.joined(separator: "\n").appending("\n").write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let run = HostRun.run(["/bin/sh", "-c",
                               "'\(path)' --functions=linkage --no-inlines --output-style=JSON < '\(input.path)'"])
        var result = [Location?](repeating: nil, count: entries.count)
        for (n, line) in run.stdout.split(separator: "\n").enumerated() where n < index.count {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let symbols = object["Symbol"] as? [[String: Any]], let first = symbols.first,
                  let function = first["FunctionName"] as? String else { continue }
            result[index[n]] = Location(function: function, file: first["FileName"] as? String ?? "",
                                        line: first["Line"] as? Int ?? 0)
        }
        return result
    }
}

extension Symbolizer {
    /// The function names of a raw report's stack (return addresses: symbolized at offset - 1).
    package static func functions(_ report: [String: Any], _ key: String = "frames") throws -> [String] {
        let frames = report[key] as? [[String: Any]] ?? []
        return try symbolize(modules: frames.map { rawEntry($0, returnAddress: true) }).map { $0?.function ?? "?" }
    }

    /// A raw callback frame's function (a function entry: symbolized at its offset exactly).
    package static func callback(_ frame: Any?) throws -> String? {
        guard let frame = frame as? [String: Any] else { return nil }
        return try symbolize(modules: [rawEntry(frame, returnAddress: false)]).first??.function
    }

    static func rawEntry(_ frame: [String: Any], returnAddress: Bool) -> (module: String, offset: UInt64)? {
        guard let module = frame["module"] as? String, let text = frame["offset"] as? String,
              let offset = UInt64(text.dropFirst(2), radix: 16), offset > 0 else { return nil }
        return (module, returnAddress ? offset - 1 : offset)
    }
}

package struct SymbolizerMissing: Error, CustomStringConvertible {
    package var description: String { "llvm-symbolizer not found (the Swift toolchain ships one; or apt-get install llvm)" }
}
