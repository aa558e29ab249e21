import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Reliability row 25: the env parser under libFuzzer (a short run; scripts/fuzz.sh is the long
/// one) and the report reader under randomized inputs (a seeded generator, so a failure repeats).
@Suite("reliability: fuzzing")
struct ReliabilityFuzzTests {
    @Test("row 25: libFuzzer + ASan + UBSan over lh_config_load for a few seconds: no finding")
    func fuzzEnvParser() throws {
        try Rel.ensureBuilt()
        let fuzzer = Rel.path("fuzz-config")
        try #require(FileManager.default.isExecutableFile(atPath: fuzzer),
                     "scripts/build-fuzzers.sh built no harness (no clang with libFuzzer)")
        // libFuzzer writes new inputs into its first corpus directory: a scratch one, so the seed
        // corpus in the repository (minimized with -merge=1) is only read.
        let seeds = Native.root.appendingPathComponent("Tests/Fuzz/corpus/config").path
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lh-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = HostRun.run([fuzzer, "-max_total_time=6", "-max_len=4096", "-timeout=10", "-seed=7", scratch.path, seeds],
                              timeout: 120)
        #expect(run.status == 0 && !run.timedOut, "libFuzzer found something:\n\(run.stderr.suffix(4000))")
        #expect(run.stderr.contains("Done "), "\(run.stderr.suffix(2000))")
    }

    /// SplitMix64: a small, seeded generator.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One random change to a JSON text: cut it, flip bytes, splice in garbage or a hostile value,
    /// duplicate a part, or replace a value with another JSON type.
    static func mutate(_ data: Data, _ g: inout Generator) -> Data {
        var bytes = [UInt8](data)
        guard !bytes.isEmpty else { return Data([UInt8.random(in: 0...255, using: &g)]) }
        let at = Int.random(in: 0..<bytes.count, using: &g)
        switch Int.random(in: 0..<7, using: &g) {
        case 0: bytes = Array(bytes[..<at])
        case 1: for _ in 0..<Int.random(in: 1...8, using: &g) { bytes[Int.random(in: 0..<bytes.count, using: &g)] = UInt8.random(in: 0...255, using: &g) }
        case 2: bytes.insert(contentsOf: (0..<Int.random(in: 1...64, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }, at: at)
        case 3:
            let hostile = ["null", "-1", "1e400", "18446744073709551616", "\"\\ud800\"", "[]", "{}", "\"\"",
                           "\"\u{0}\"", "true", String(repeating: "[", count: 600), "0.5", "\"9.0\""]
            bytes.insert(contentsOf: Array(hostile.randomElement(using: &g)!.utf8), at: at)
        case 4: bytes += bytes[at...]
        case 5:
            // Replace the value after a random colon.
            if let colon = bytes[at...].firstIndex(of: UInt8(ascii: ":")) {
                let end = bytes[colon...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") } ?? bytes.count
                let values = ["null", "\"x\"", "12345678901234567890", "-7", "[1,2]", "{\"a\":1}", "false", "\"9.9\""]
                bytes.replaceSubrange((colon + 1)..<end, with: Array(values.randomElement(using: &g)!.utf8))
            }
        default: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...40, using: &g)))
        }
        return Data(bytes)
    }

    @Test("row 25: 3,000 randomized report and summary files: each decodes or is refused with a message; the directory reader never stops")
    func randomizedReader() throws {
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: Fixtures.reports.path).sorted()
        let originals = try fixtures.map { try Data(contentsOf: Fixtures.reports.appendingPathComponent($0)) }
        var g = Generator(state: 0x5EED_0007)
        var decoded = 0, refused = 0
        let dir = ReportDirectory("rel-fuzz-reader")
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        defer { dir.remove() }
        for i in 0..<3000 {
            var data = originals[i % originals.count]
            for _ in 0..<Int.random(in: 1...3, using: &g) { data = Self.mutate(data, &g) }
            do {
                _ = try ReportFile.decode(data, path: "case-\(i).json")
                decoded += 1
            } catch {
                #expect(!error.description.isEmpty)
                refused += 1
            }
            if i % 10 == 0 {
                try data.write(to: URL(fileURLWithPath: dir.path + "/report-\(i).json"))
            }
        }
        #expect(decoded + refused == 3000 && refused > 0)
        let collection = try ReportDirectoryReader(directory: URL(fileURLWithPath: dir.path)).read()
        #expect(collection.reports.count + collection.summaries.count + collection.problems.count == 300)
    }
}
