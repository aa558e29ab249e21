import Foundation
import LoopHunterReport

/// A program run to completion under a watchdog: its exit status, output and time.
package struct HostRun: Sendable {
    package let arguments: [String]
    /// The exit status, or 128 + signal when killed by a signal.
    package let status: Int32
    package let signaled: Bool
    package let timedOut: Bool
    package let stdout: String
    package let stderr: String
    package let seconds: Double

    /// Runs `arguments` with `environment` added to (or removed from, when nil) this process's
    /// environment minus any LD_PRELOAD and LOOPHUNTER_* variables. Output goes to files, so
    /// there is no pipe to deadlock on; the watchdog kills the whole run after `timeout` seconds.
    package static func run(_ arguments: [String], environment: [String: String?] = [:],
                    timeout: Double = 60, currentDirectory: String? = nil) -> HostRun {
        var env = ProcessInfo.processInfo.environment.filter {
            $0.key != "LD_PRELOAD" && !$0.key.hasPrefix("LOOPHUNTER_")
        }
        for (key, value) in environment { env[key] = value }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("lh-run-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout"), err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try? FileHandle(forWritingTo: out)
        process.standardError = try? FileHandle(forWritingTo: err)
        let started = Date()
        do {
            try process.runWithDefaultSignalMask()
        } catch {
            return HostRun(arguments: arguments, status: 127, signaled: false, timedOut: false,
                           stdout: "", stderr: "cannot start \(arguments[0]): \(error)", seconds: 0)
        }
        let pid = process.processIdentifier
        let watchdog = Watchdog()
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if watchdog.fire() { kill(pid, SIGKILL) }
        }
        process.waitUntilExit()
        let timedOut = !watchdog.disarm()
        let signaled = process.terminationReason == .uncaughtSignal
        let status = signaled ? 128 + process.terminationStatus : process.terminationStatus
        return HostRun(arguments: arguments, status: status, signaled: signaled, timedOut: timedOut,
                       stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                       stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "",
                       seconds: Date().timeIntervalSince(started))
    }

    /// Runs under the preload, writing reports into `dir`.
    package static func underPreload(_ arguments: [String], dir: String?, extra: [String: String?] = [:],
                             timeout: Double = 60) -> HostRun {
        var env: [String: String?] = ["LD_PRELOAD": Native.preload]
        if let dir { env["LOOPHUNTER_DIR"] = dir }
        for (key, value) in extra { env[key] = value }
        return run(arguments, environment: env, timeout: timeout)
    }

    /// stderr lines LoopHunter printed.
    package var loophunterLines: [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("loophunter:") }
    }

    /// Runs the `loophunter` binary.
    package static func cli(_ arguments: [String], environment: [String: String?] = [:], timeout: Double = 120) -> HostRun {
        run([Native.cli] + arguments, environment: environment, timeout: timeout)
    }

    /// Runs `loophunter ship`.
    package static func ship(_ arguments: [String], environment: [String: String?] = [:], timeout: Double = 300) -> HostRun {
        run([Native.cli, "ship"] + arguments, environment: environment, timeout: timeout)
    }
}
