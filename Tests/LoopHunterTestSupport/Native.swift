import Foundation
import Testing

/// Paths of the package and of the native products the tests run (built by
/// scripts/build-native.sh, once per test process, before the first test that needs them).
package enum Native {
    /// The package root: this file is Tests/LoopHunterTestSupport/Native.swift.
    package static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    package static let release = root.appendingPathComponent(".build/release")
    package static let preload = release.appendingPathComponent("libloophunter.so").path
    package static let toykitLibrary = release.appendingPathComponent("libtoykit.so").path
    package static let demo = release.appendingPathComponent("toykit-demo").path
    /// The `loophunter` command built with the tests (next to the test bundle).
    package static let cli: String = {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("loophunter").path
    }()
    /// Host programs of the end-to-end tests (Tests/Programs).
    package static let probe = release.appendingPathComponent("test-programs/lh-probe").path
    package static let poller = release.appendingPathComponent("test-programs/lh-poller").path
    package static let allocProbe = release.appendingPathComponent("test-programs/lh-alloc-probe").path
    package static let gtkPrograms = release.appendingPathComponent("test-programs/gtk").path
    /// glibc's debugging allocator, preloaded beside LoopHunter in the allocator tests.
    package static let mallocDebug = "/lib/x86_64-linux-gnu/libc_malloc_debug.so.0"
    /// A toykit loop left by _exit, exec, vfork... (Tests/Programs/lh_leave.c).
    package static let leave = release.appendingPathComponent("test-programs/lh-leave").path
    /// Reports made back to back, then left by exit, _exit, exec or fork (Tests/Programs/lh_burst.c).
    package static let burst = release.appendingPathComponent("test-programs/lh-burst").path

    /// The toykit scenarios, as `toykit-demo --list` prints them.
    package static let scenarios = ["healthy", "loop", "capped-loop", "oscillate", "alloc-storm", "leak", "threads", "fork",
                            "stall", "slow-window", "timer-storm", "timer-dangling"]

    /// Builds the native parts once; every test that runs them calls this first. A failed build
    /// fails the test with the compiler's output.
    package static func ensureBuilt() throws {
        switch buildOutcome {
        case .success: return
        case .failure(let error): throw error
        }
    }

    private static let buildOutcome: Result<Void, NativeBuildError> = {
        let run = HostRun.run([root.appendingPathComponent("scripts/build-native.sh").path],
                              timeout: 600)
        if run.status == 0 { return .success(()) }
        return .failure(NativeBuildError(output: run.stdout + run.stderr))
    }()
}

package struct NativeBuildError: Error, CustomStringConvertible {
    package let output: String

    package init(output: String) { self.output = output }
    package var description: String { "scripts/build-native.sh failed:\n\(output)" }
}
