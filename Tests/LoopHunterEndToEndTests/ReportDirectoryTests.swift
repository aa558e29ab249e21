import Foundation
import Testing
import LoopHunterTestSupport

/// The report directory: created private when missing; refused, with one clear line and the host
/// unharmed, when it cannot be used safely; report files owner-only.
@Suite("report directory")
struct ReportDirectoryTests {
    @Test("a missing directory and its parents are created 0700; reports are 0600")
    func createsPrivate() throws {
        try Native.ensureBuilt()
        let base = ReportDirectory("nested")
        defer { base.remove() }
        let dir = base.path + "/a/b/reports"
        let run = HostRun.underPreload([Native.demo, "loop"], dir: dir)
        #expect(run.status == 0 && run.loophunterLines.isEmpty, "\(run.stderr)")
        for path in [base.path, base.path + "/a", base.path + "/a/b", dir] {
            #expect(FilePermissions.mode(path) == 0o700, "\(path): \(String(FilePermissions.mode(path), radix: 8))")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(files.count == 2, "\(files)")
        for file in files { #expect(FilePermissions.mode(dir + "/" + file) == 0o600, "\(file)") }
    }

    /// Directories that must be refused: the reason expected in the message, and how to set it up.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let label: String
        let reason: String
        let setUp: @Sendable (String) throws -> String
        var testDescription: String { label }
    }

    static let refusals: [Refusal] = [
        .init(label: "under a regular file", reason: "could not be created") { base in
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: base + "/file", contents: Data("x".utf8))
            return base + "/file/reports"
        },
        .init(label: "a regular file", reason: "is not a directory") { base in
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: base + "/file", contents: Data("x".utf8))
            return base + "/file"
        },
        .init(label: "world-writable", reason: "is writable by other users (mode 0777)") { base in
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
            chmod(base, 0o777)
            return base
        },
        .init(label: "owned by another user", reason: "is owned by uid") { base in
            // As root: a directory given to nobody. As anyone else: "/" is root's.
            guard geteuid() == 0 else { return "/" }
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
            chmod(base, 0o700)
            chown(base, 65534, 65534)
            return base
        },
        .init(label: "impossible to create", reason: "could not be created") { _ in "/proc/loophunter-test/reports" },
    ]

    @Test("an unusable directory: one line, nothing written, host unharmed", arguments: refusals)
    func refused(_ r: Refusal) throws {
        try Native.ensureBuilt()
        let base = ReportDirectory("refuse")
        defer { base.remove() }
        let dir = try r.setUp(base.path)
        let before = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        let plain = HostRun.run([Native.demo, "loop"])
        let run = HostRun.underPreload([Native.demo, "loop"], dir: dir)
        #expect(run.status == plain.status && run.stdout == plain.stdout)
        #expect(run.loophunterLines.count == 1, "\(run.stderr)")
        let line = run.loophunterLines.first ?? ""
        #expect(line.contains(dir) && line.contains(r.reason), "\(line)")
        #expect(line.contains("reports will not be written") && line.contains("LOOPHUNTER_DIR"))
        let after = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        #expect(after == before, "nothing written into a refused directory")
    }

    @Test("a relative LOOPHUNTER_DIR is taken from the working directory at start-up")
    func relative() throws {
        try Native.ensureBuilt()
        let base = ReportDirectory("relative")
        defer { base.remove() }
        try FileManager.default.createDirectory(atPath: base.path, withIntermediateDirectories: true)
        let run = HostRun.run([Native.demo, "loop"],
                              environment: ["LD_PRELOAD": Native.preload, "LOOPHUNTER_DIR": "out/lh"],
                              currentDirectory: base.path)
        #expect(run.status == 0 && run.loophunterLines.isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: base.path + "/out/lh")) ?? []).count == 2)
    }
}
