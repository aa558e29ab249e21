import Foundation
import LoopHunterReport

/// The test collector of the ship tests (Tests/Receivers/otlp_receiver.py) running on a free
/// loopback port: an OTLP/HTTP receiver that decodes every body with the official
/// opentelemetry-proto package, or a JSON endpoint, optionally scripted to misbehave. Every
/// request it saw is a line of its log.
package final class ShipCollector {
    package let port: Int
    package let scratch: URL
    package let usesTLS: Bool
    private let process: Process

    package var logPath: String { scratch.appendingPathComponent("requests.jsonl").path }
    /// Where the collector's own errors go (a Python traceback fails the test that reads it).
    package var stderrPath: String { scratch.appendingPathComponent("stderr").path }
    /// The base URL (OTLP: `loophunter ship` adds /v1/logs).
    package var url: String { "\(usesTLS ? "https" : "http")://\(usesTLS ? "localhost" : "127.0.0.1"):\(port)" }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The venv of scripts/setup-validators.sh (opentelemetry-proto and protobuf, pinned), made
    /// once per test process.
    package static let python: Result<String, Failure> = {
        let run = HostRun.run([Native.root.appendingPathComponent("scripts/setup-validators.sh").path], timeout: 600)
        guard run.status == 0 else {
            return .failure(Failure(description: "scripts/setup-validators.sh failed (\(run.status)): \(run.stdout)\(run.stderr)"))
        }
        return .success(Native.root.appendingPathComponent(".build/validators-venv/bin/python").path)
    }()

    /// Starts a collector. `arguments` are the receiver's own (`--script`, `--poison`, `--delay`, ...).
    package init(mode: String = "otlp", _ arguments: [String] = [], tls: (cert: String, key: String)? = nil) throws {
        let python = try Self.python.get()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lh-collector-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let portFile = scratch.appendingPathComponent("port").path
        usesTLS = tls != nil
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        var all = [Native.root.appendingPathComponent("Tests/Receivers/otlp_receiver.py").path,
                   "--mode", mode, "--port-file", portFile, "--log", scratch.appendingPathComponent("requests.jsonl").path,
                   "--lifetime", "900"] + arguments
        if let tls { all += ["--tls-cert", tls.cert, "--tls-key", tls.key] }
        process.arguments = all
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: scratch.appendingPathComponent("stderr").path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: scratch.appendingPathComponent("stderr"))
        _ = FileManager.default.createFile(atPath: scratch.appendingPathComponent("requests.jsonl").path, contents: nil)
        try process.runWithDefaultSignalMask()
        // Readiness, not timing: wait for the port file (bounded, so a broken receiver fails).
        var port: Int?
        for _ in 0..<600 where port == nil {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let value = Int(text) { port = value; break }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        guard let port else {
            process.terminate()
            let errors = (try? String(contentsOfFile: scratch.appendingPathComponent("stderr").path, encoding: .utf8)) ?? ""
            throw Failure(description: "the test collector did not start: \(errors)")
        }
        self.port = port
    }

    deinit { stop() }

    package func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Every request seen so far, in arrival order.
    package func entries() -> [ShipCollectorEntry] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(ShipCollectorEntry.self, from: Data($0.utf8))
        }
    }

    /// How many times each id was accepted (answered 2xx, or committed before a stalled answer).
    package func acceptedCounts() -> [String: Int] {
        var counts: [String: Int] = [:]
        for entry in entries() where entry.accepted {
            for id in entry.ids ?? [] { counts[id, default: 0] += 1 }
        }
        return counts
    }

    /// Every record the decoder took (the collector started with `--keep-records`), by its
    /// `log.record.uid`, each as canonical JSON (sorted keys) of what opentelemetry-proto decoded:
    /// the record without `observedTimeUnixNano` (the time the shipper read it), its resource and
    /// its scope. A uid accepted twice is listed twice.
    package func decodedRecords() -> [(uid: String, record: String)] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        var records: [(uid: String, record: String)] = []
        for line in text.split(separator: "\n") {
            guard let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let status = entry["status"] as? Int, (200..<300).contains(status),
                  let kept = entry["records"] as? [[String: Any]] else { continue }
            for var item in kept {
                guard var record = item["record"] as? [String: Any],
                      let attributes = record["attributes"] as? [[String: Any]],
                      let uid = attributes.first(where: { $0["key"] as? String == "log.record.uid" })
                        .flatMap({ ($0["value"] as? [String: Any])?["stringValue"] as? String }) else { continue }
                record["observedTimeUnixNano"] = nil
                item["record"] = record
                guard let data = try? JSONSerialization.data(withJSONObject: item, options: [.sortedKeys]) else { continue }
                records.append((uid, String(decoding: data, as: UTF8.self)))
            }
        }
        return records
    }

    /// Requests the decoder refused as malformed (must stay empty).
    package func malformed() -> [String] {
        entries().compactMap(\.error)
    }

    /// The collector's own stderr (a traceback means the receiver broke, not the shipper).
    package var errors: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
}
