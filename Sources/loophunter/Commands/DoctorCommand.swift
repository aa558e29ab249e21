import ArgumentParser
import Foundation
import LoopHunterCore
import LoopHunterReport

/// `loophunter doctor`: is everything LoopHunter needs here, and which toolkits can it watch.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that LoopHunter can run here.",
        discussion: """
            Checks that the preload is found and carries no runtime of its own, that libunwind can be \
            loaded, that a symbolizer and demanglers are available, which GUI toolkits are installed, \
            and whether the default report directory is usable.

            Example:
              loophunter doctor

            Exit status: 0 when LoopHunter can run (warnings allowed); 1 when something it needs is missing.
            """)

    @Option(help: ArgumentHelp("The preload to check (default: as `run` finds it).", valueName: "path"))
    var preload: String?

    @Option(help: "Colour: auto, always, never.")
    var color: ColorChoice = .auto

    func run() throws {
        let checks = [preloadCheck(), libunwindCheck(), symbolizerCheck(), demanglerCheck()]
            + toolkitChecks() + [reportDirectoryCheck(), environmentCheck(), allocatorCheck(), attachCheck()]
        let colors = color.enabled(forDescriptor: 1)
        for check in checks.compactMap({ $0 }) {
            let mark: String
            switch check.outcome {
            case .ok: mark = colors ? "\u{1B}[32m✓\u{1B}[0m" : "✓"
            case .warning: mark = colors ? "\u{1B}[33m!\u{1B}[0m" : "!"
            case .failure: mark = colors ? "\u{1B}[31m✗\u{1B}[0m" : "✗"
            }
            print("\(mark) \(check.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(check.detail)")
            if let fix = check.fix { print("  \(String(repeating: " ", count: 14)) → \(fix)") }
        }
        if checks.contains(where: { $0?.outcome == .failure }) { throw ExitCode(1) }
    }

    /// Whether `loophunter attach` may trace the user's own programs here (Yama's ptrace_scope and
    /// CAP_SYS_PTRACE). A failure to attach is a warning: `run` works regardless.
    private func attachCheck() -> DoctorCheck {
        let scope = PtraceScope.current()
        let setting = scope.map { "Yama ptrace_scope \($0)" } ?? "no Yama ptrace policy"
        let capable = PtraceScope.hasCapability
        if let refusal = PtraceScope.refusal(scope: scope, capable: capable) {
            return DoctorCheck(name: "attach", outcome: .warning, detail: "loophunter attach cannot trace running programs here (\(setting))",
                               fix: refusal)
        }
        let who = capable ? "any process (CAP_SYS_PTRACE)" : "your own processes"
        return DoctorCheck(name: "attach", outcome: .ok, detail: "loophunter attach may trace \(who) (\(setting))", fix: nil)
    }

    private func preloadCheck() -> DoctorCheck {
        switch PreloadLocator.locate(explicit: preload) {
        case .failure(let missing):
            return DoctorCheck(name: "preload", outcome: .failure, detail: "libloophunter.so not found", fix: missing.description)
        case .success(let path):
            guard let needed = ELFFile(path: path)?.neededLibraries else {
                return DoctorCheck(name: "preload", outcome: .failure, detail: "\(path) is not a readable ELF library",
                                   fix: "rebuild it with scripts/build-native.sh")
            }
            let foreign = needed.filter { $0.contains("swift") || $0.contains("stdc++") }
            if !foreign.isEmpty {
                return DoctorCheck(name: "preload", outcome: .failure, detail: "\(path) needs \(foreign.joined(separator: ", "))",
                                   fix: "a preload must carry no runtime of its own: build it with scripts/build-native.sh, not SwiftPM")
            }
            return DoctorCheck(name: "preload", outcome: .ok, detail: "\(path) (needs \(needed.joined(separator: ", ")))", fix: nil)
        }
    }

    private func libunwindCheck() -> DoctorCheck {
        if dlopen("libunwind.so.8", RTLD_LAZY | RTLD_LOCAL) != nil {
            return DoctorCheck(name: "libunwind", outcome: .ok, detail: "libunwind.so.8 loads", fix: nil)
        }
        return DoctorCheck(name: "libunwind", outcome: .failure, detail: "libunwind.so.8 cannot be loaded",
                           fix: "sudo apt-get install libunwind8 (the preload opens it to capture stacks; without it reports have none)")
    }

    private func symbolizerCheck() -> DoctorCheck {
        guard let tool = ToolLocator.symbolizer() else {
            return DoctorCheck(name: "symbolizer", outcome: .warning, detail: "llvm-symbolizer not found: reports will show exported names only",
                               fix: "sudo apt-get install llvm, or put the Swift toolchain's bin directory on PATH")
        }
        let version = BatchToolVersion.firstLine(tool, "--version") ?? "version unknown"
        return DoctorCheck(name: "symbolizer", outcome: .ok, detail: "\(tool) (\(version))", fix: nil)
    }

    private func demanglerCheck() -> DoctorCheck {
        let swift = ToolLocator.swiftDemangle(), cxx = ToolLocator.cxxDemangle()
        let found = [swift.map { "Swift: \($0)" }, cxx.map { "C++: \($0)" }].compactMap { $0 }
        if swift != nil && cxx != nil { return DoctorCheck(name: "demanglers", outcome: .ok, detail: found.joined(separator: ", "), fix: nil) }
        return DoctorCheck(name: "demanglers", outcome: .warning,
                           detail: found.isEmpty ? "none found: mangled names stay mangled" : found.joined(separator: ", "),
                           fix: (swift == nil ? "swift-demangle comes with the Swift toolchain; " : "") + (cxx == nil ? "c++filt comes with binutils" : ""))
    }

    private func toolkitChecks() -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        for (name, library, prefix) in [("GTK 4", "libgtk-4.so.1", "gtk"), ("GTK 3", "libgtk-3.so.0", "gtk")] {
            guard let handle = dlopen(library, RTLD_LAZY | RTLD_LOCAL) else {
                checks.append(DoctorCheck(name: name, outcome: .warning, detail: "\(library) not installed", fix: nil))
                continue
            }
            typealias Getter = @convention(c) () -> UInt32
            let parts = ["major", "minor", "micro"].compactMap { part -> UInt32? in
                dlsym(handle, "\(prefix)_get_\(part)_version").map { unsafeBitCast($0, to: Getter.self)() }
            }
            checks.append(DoctorCheck(name: name, outcome: .ok,
                                      detail: "\(library) \(parts.map(String.init).joined(separator: "."))", fix: nil))
        }
        // Qt: its version from qVersion(), an extern "C" function of QtCore.
        for (name, library) in [("Qt 6", "libQt6Core.so.6"), ("Qt 5", "libQt5Core.so.5")] {
            guard let handle = dlopen(library, RTLD_LAZY | RTLD_LOCAL) else {
                checks.append(DoctorCheck(name: name, outcome: .warning, detail: "\(library) not installed", fix: nil))
                continue
            }
            typealias Version = @convention(c) () -> UnsafePointer<CChar>?
            let version = dlsym(handle, "qVersion").flatMap { unsafeBitCast($0, to: Version.self)() }.map { String(cString: $0) }
            checks.append(DoctorCheck(name: name, outcome: .ok, detail: "\(library) \(version ?? "(version unknown)")", fix: nil))
        }
        if let toykit = try? PreloadLocator.locate(explicit: preload).get() {
            let path = URL(fileURLWithPath: toykit).deletingLastPathComponent().appendingPathComponent("libtoykit.so").path
            if FileManager.default.fileExists(atPath: path) {
                checks.append(DoctorCheck(name: "toykit", outcome: .ok, detail: path, fix: nil))
            }
        }
        // The toolkits a summary names (the preload's table, lh_shared.h), supported or not.
        var supported: [String] = [], unsupported: [String] = []
        for index in 0... {
            guard let name = lh_toolkit_name_at(index).map({ String(cString: $0) }) else { break }
            if lh_toolkit_supported_at(index) != 0 {
                if !supported.contains(name) { supported.append(name) }
            } else if !unsupported.contains(name) {
                unsupported.append(name)
            }
        }
        checks.append(DoctorCheck(name: "toolkits", outcome: .ok,
                                  detail: "layouts counted in \(supported.joined(separator: ", "))", fix: nil))
        checks.append(DoctorCheck(name: "unsupported", outcome: .ok,
                                  detail: "\(unsupported.joined(separator: ", ")): named in the summary "
                                      + "(not supported: layouts are not counted)", fix: nil))
        return checks
    }

    private func reportDirectoryCheck() -> DoctorCheck {
        let environment = ProcessInfo.processInfo.environment
        let path = environment["LOOPHUNTER_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp/loophunter-\(geteuid())"
        var st = stat()
        guard stat(path, &st) == 0 else {
            return DoctorCheck(name: "report dir", outcome: .ok, detail: "\(path) (created 0700 on first use)", fix: nil)
        }
        if (st.st_mode & S_IFMT) != S_IFDIR {
            return DoctorCheck(name: "report dir", outcome: .failure, detail: "\(path) is not a directory", fix: "remove it, or set LOOPHUNTER_DIR")
        }
        if st.st_uid != geteuid() {
            return DoctorCheck(name: "report dir", outcome: .failure, detail: "\(path) belongs to uid \(st.st_uid)",
                               fix: "set LOOPHUNTER_DIR to a directory of your own")
        }
        if (st.st_mode & 0o022) != 0 {
            return DoctorCheck(name: "report dir", outcome: .failure, detail: "\(path) is writable by others",
                               fix: "chmod 700 \(path)")
        }
        return DoctorCheck(name: "report dir", outcome: .ok, detail: path, fix: nil)
    }

    /// A replacement allocator in LD_PRELOAD: `run` puts LoopHunter ahead of it (allocations are
    /// forwarded to it and counted); set by hand, LoopHunter must come first or it sees none.
    private func allocatorCheck() -> DoctorCheck {
        let entries = (ProcessInfo.processInfo.environment["LD_PRELOAD"] ?? "")
            .split(whereSeparator: { $0 == ":" || $0 == " " }).map(String.init)
        let known = ["jemalloc", "tcmalloc", "mimalloc", "hoard", "snmalloc", "rpmalloc", "libc_malloc_debug", "libasan", "libtsan"]
        let allocators = entries.filter { entry in known.contains { entry.contains($0) } }
        guard let first = allocators.first else {
            return DoctorCheck(name: "allocator", outcome: .ok, detail: "no replacement allocator in LD_PRELOAD", fix: nil)
        }
        let ours = entries.firstIndex { $0.contains("libloophunter") }
        if let ours, let theirs = entries.firstIndex(of: first), theirs < ours {
            return DoctorCheck(name: "allocator", outcome: .warning,
                               detail: "LD_PRELOAD has \(first) ahead of libloophunter.so: its malloc takes every call, allocations are not counted",
                               fix: "put libloophunter.so first in LD_PRELOAD, or use `loophunter run`, which does")
        }
        return DoctorCheck(name: "allocator", outcome: .ok,
                           detail: "\(allocators.joined(separator: ", ")) in LD_PRELOAD: `loophunter run` puts libloophunter.so ahead of it, and allocations are forwarded to it and counted",
                           fix: nil)
    }

    private func environmentCheck() -> DoctorCheck? {
        guard let preload = ProcessInfo.processInfo.environment["LD_PRELOAD"], preload.contains("libloophunter") else { return nil }
        return DoctorCheck(name: "environment", outcome: .warning, detail: "LD_PRELOAD already names libloophunter (\(preload))",
                           fix: "`loophunter run` adds it itself; a second copy is ignored")
    }
}
