import Foundation
import LoopHunterCore
import Testing
import LoopHunterTestSupport

/// Every LOOPHUNTER_* variable with bad values: one clear line naming the variable, the value and
/// the value used instead; the documented default in force; the host unharmed.
@Suite("configuration from the environment")
struct ConfigTests {
    final class Messages: @unchecked Sendable { var lines: [String] = [] }

    /// Loads a configuration from `env` ("NAME=value" entries) through the C parser.
    static func load(_ env: [String]) -> (lh_config, [String]) {
        let messages = Messages()
        var cfg = lh_config()
        let strings = CStrings(env)
        let count = strings.withArray { envp in
            withExtendedLifetime(messages) {
                lh_config_load(&cfg, envp, 1000, { ctx, line in
                    let box = Unmanaged<Messages>.fromOpaque(ctx!).takeUnretainedValue()
                    box.lines.append(String(cString: line!))
                }, Unmanaged.passUnretained(messages).toOpaque())
            }
        }
        #expect(Int(count) == messages.lines.count)
        return (cfg, messages.lines)
    }

    static let defaults = load([]).0

    /// Numeric variables: name, minimum, maximum, and how to read the field.
    struct Numeric: Sendable, CustomTestStringConvertible {
        let name: String
        let min: UInt64
        let max: UInt64
        let field: @Sendable (lh_config) -> UInt64
        var testDescription: String { name }
    }

    static let numerics: [Numeric] = [
        .init(name: "THRESHOLD", min: 2, max: 16_000_000) { $0.threshold },
        .init(name: "STREAK", min: 2, max: 1_000_000) { $0.streak },
        .init(name: "STREAK_GAP_MS", min: 1, max: 60000) { $0.streak_gap_ms },
        .init(name: "TABLE_SLOTS", min: 64, max: 16_777_216) { $0.table_slots },
        .init(name: "MAX_FRAMES", min: 1, max: 256) { $0.max_frames },
        .init(name: "MAX_REPORTS", min: 0, max: 1_000_000) { $0.max_reports },
        .init(name: "THROTTLE_SECS", min: 0, max: 31_536_000) { $0.throttle_secs },
        .init(name: "HISTORY", min: 1, max: 256) { $0.history },
        .init(name: "ALLOC_BYTES", min: 1024, max: 1 << 40) { $0.alloc_bytes },
        .init(name: "ALLOC_CALLS", min: 16, max: 4_000_000_000) { $0.alloc_calls },
        .init(name: "ALLOC_REPEAT", min: 1, max: 1000) { $0.alloc_repeat },
        .init(name: "GROWTH_BYTES", min: 1024, max: 1 << 40) { $0.growth_bytes },
        .init(name: "GROWTH_ITERATIONS", min: 2, max: 1_000_000) { $0.growth_iterations },
        .init(name: "STALL_MS", min: 10, max: 3_600_000) { $0.stall_ms },
        .init(name: "WINDOW_MS", min: 1, max: 3_600_000) { $0.window_ms },
        .init(name: "TIMER_LIVE", min: 2, max: 100_000_000) { $0.timer_live },
        .init(name: "TIMER_ITERATIONS", min: 2, max: 1_000_000) { $0.timer_iterations },
        .init(name: "TIMER_FIRES", min: 2, max: 100_000_000) { $0.timer_fires },
    ]

    static let badNumbers = ["", "-5", "abc", "12abc", "1e3", " 7", "0x10", "99999999999999999999999",
                             String(repeating: "9", count: 4096), String(repeating: "x", count: 4096)]

    @Test("defaults are the documented ones")
    func documentedDefaults() {
        let d = Self.defaults
        #expect(d.threshold == 100 && d.streak == 60 && d.streak_gap_ms == 25)
        #expect(d.table_slots == 16384 && d.max_frames == 64 && d.max_reports == 100)
        #expect(d.throttle_secs == 0 && d.history == 32 && !d.disable && !d.verbose && d.report_thread)
        #expect(cText(d.dir) == "/tmp/loophunter-1000")
        #expect(cText(d.loop_libs) == "libglib-2.0.so,libtoykit.so,libQt5Core.so,libQt6Core.so")
        #expect(d.families == UInt32(LH_FAMILY_LAYOUT | LH_FAMILY_ALLOC | LH_FAMILY_LOOP | LH_FAMILY_LOG |
                                     LH_FAMILY_STALL | LH_FAMILY_WINDOW | LH_FAMILY_TIMER))
        #expect(d.stall_ms == 2000 && d.window_ms == 2000)
        #expect(d.timer_live == 500 && d.timer_iterations == 60 && d.timer_fires == 200)
        #expect(d.alloc_bytes == 64 << 20 && d.alloc_calls == 1_000_000 && d.alloc_repeat == 3)
        #expect(d.growth_bytes == 64 << 20 && d.growth_iterations == 60)
    }

    @Test("bad whole numbers: one line each, default used", arguments: numerics)
    func badNumber(_ v: Numeric) {
        let def = v.field(Self.defaults)
        var cases = Self.badNumbers
        if v.min > 0 { cases.append(String(v.min - 1)) }
        cases.append(String(v.max + 1))
        for bad in cases {
            let (cfg, lines) = Self.load(["LOOPHUNTER_\(v.name)=\(bad)"])
            #expect(v.field(cfg) == def, "\(v.name)=\(bad.prefix(20)) must fall back to \(def)")
            #expect(lines.count == 1, "\(v.name)=\(bad.prefix(20)): \(lines)")
            let line = lines.first ?? ""
            #expect(line.hasPrefix("loophunter: LOOPHUNTER_\(v.name)"))
            #expect(line.contains("using \(def)") && line.contains("allowed \(v.min)..\(v.max)"))
            #expect(line.utf8.count < 240, "one short line even for a 4 KiB value")
        }
        // The limits themselves are accepted.
        for good in [v.min, v.max] {
            let (cfg, lines) = Self.load(["LOOPHUNTER_\(v.name)=\(good)"])
            #expect(lines.isEmpty)
            if v.name == "TABLE_SLOTS" {
                #expect(cfg.table_slots >= good && cfg.table_slots.nonzeroBitCount == 1, "rounded to a power of two")
            } else {
                #expect(v.field(cfg) == good)
            }
        }
    }

    @Test("bad on/off values")
    func badFlags() {
        for name in ["DISABLE", "VERBOSE"] {
            for bad in ["", "maybe", "2", "enable", String(repeating: "y", count: 4096)] {
                let (cfg, lines) = Self.load(["LOOPHUNTER_\(name)=\(bad)"])
                #expect(!cfg.disable && !cfg.verbose)
                #expect(lines.count == 1 && lines[0].hasPrefix("loophunter: LOOPHUNTER_\(name)"), "\(lines)")
                #expect(lines.first?.contains("using 0") == true)
            }
            for good in ["1", "true", "YES", "on"] {
                let (cfg, lines) = Self.load(["LOOPHUNTER_\(name)=\(good)"])
                #expect(lines.isEmpty && (name == "DISABLE" ? cfg.disable : cfg.verbose))
            }
        }
    }

    @Test("bad text values and lists")
    func badText() {
        var (cfg, lines) = Self.load(["LOOPHUNTER_DIR="])
        #expect(lines.count == 1 && lines[0].contains("LOOPHUNTER_DIR is empty") && cText(cfg.dir) == "/tmp/loophunter-1000")
        (cfg, lines) = Self.load(["LOOPHUNTER_DIR=/" + String(repeating: "d", count: 4096)])
        #expect(lines.count == 1 && lines[0].contains("too long") && cText(cfg.dir) == "/tmp/loophunter-1000")
        (cfg, lines) = Self.load(["LOOPHUNTER_LOOP_LIBS="])
        #expect(lines.count == 1 && cfg.loop_lib_count == 4, "an empty list keeps the 4 defaults: \(lines)")
        (cfg, lines) = Self.load(["LOOPHUNTER_LOOP_LIBS=libQt5Core.so, " + String(repeating: "l", count: 70) + ",,libfoo.so"])
        #expect(lines.count == 1 && lines[0].contains("longer than 63 bytes"), "\(lines)")
        #expect(cfg.loop_lib_count == 2 && cText(cfg.loop_lib.0) == "libQt5Core.so" && cText(cfg.loop_lib.1) == "libfoo.so")
        (cfg, lines) = Self.load(["LOOPHUNTER_HOOKS=layout,bogus"])
        #expect(lines.count == 1 && lines[0].contains("unknown hook family") && lines[0].contains("bogus"))
        #expect(cfg.families == UInt32(LH_FAMILY_LAYOUT))
        (cfg, lines) = Self.load(["LOOPHUNTER_HOOKS=none"])
        #expect(lines.isEmpty && cfg.families == 0)
    }

    @Test("an unknown LOOPHUNTER_ variable is named, not ignored silently")
    func unknownVariable() {
        let (_, lines) = Self.load(["LOOPHUNTER_TRESHOLD=50", "LOOPHUNTER_PRELOAD=/x.so", "OTHER=1"])
        #expect(lines == ["loophunter: LOOPHUNTER_TRESHOLD is not a LoopHunter variable; ignored (see docs/configuration.md)"])
    }

    @Test("under the preload: bad values never harm the host, defaults are in force")
    func endToEnd() throws {
        try Native.ensureBuilt()
        let plain = HostRun.run([Native.demo, "loop"])
        let dir = ReportDirectory("config")
        defer { dir.remove() }
        let bad: [String: String?] = [
            "LOOPHUNTER_THRESHOLD": "-1", "LOOPHUNTER_STREAK": "lots", "LOOPHUNTER_TABLE_SLOTS": "",
            "LOOPHUNTER_MAX_FRAMES": String(repeating: "8", count: 4096), "LOOPHUNTER_VERBOSE": "maybe",
        ]
        let run = HostRun.underPreload([Native.demo, "loop"], dir: dir.path, extra: bad)
        #expect(run.status == 0 && run.stdout == plain.stdout)
        #expect(run.loophunterLines.count == 5, "\(run.loophunterLines)")
        for name in bad.keys { #expect(run.loophunterLines.contains { $0.contains(name) }) }
        let summary = try #require(try dir.summaries().first)
        #expect(summary.config["LOOPHUNTER_THRESHOLD"] == .number(100))
        #expect(summary.config["LOOPHUNTER_STREAK"] == .number(60))
        #expect(summary.config["LOOPHUNTER_TABLE_SLOTS"] == .number(16384))
        #expect(summary.config["LOOPHUNTER_MAX_FRAMES"] == .number(64))
        #expect(summary.configMessages.count == 5)
        #expect(try dir.reports().count == 1, "detection still works with the defaults")

        // /bin/true: the same lines, exit status unchanged, nothing written.
        let quiet = ReportDirectory("config-true")
        defer { quiet.remove() }
        let t = HostRun.underPreload(["/bin/true"], dir: quiet.path, extra: bad)
        #expect(t.status == 0 && t.loophunterLines.count == 5 && t.stdout.isEmpty)
        let f = HostRun.underPreload(["/bin/false"], dir: quiet.path, extra: bad)
        #expect(f.status == 1)
    }

    @Test("LOOPHUNTER_HOOKS=none counts nothing; layout only keeps layout counting")
    func families() throws {
        try Native.ensureBuilt()
        let none = ReportDirectory("hooks-none")
        defer { none.remove() }
        let run = HostRun.underPreload([Native.demo, "loop"], dir: none.path, extra: ["LOOPHUNTER_HOOKS": "none"])
        #expect(run.status == 0 && run.loophunterLines.isEmpty)
        #expect(none.fileNames.isEmpty, "no iteration, no layout, nothing to summarise: \(none.fileNames)")

        let layout = ReportDirectory("hooks-layout")
        defer { layout.remove() }
        _ = HostRun.underPreload([Native.demo, "loop"], dir: layout.path, extra: ["LOOPHUNTER_HOOKS": "layout"])
        let summary = try #require(try layout.summaries().first)
        #expect(summary.hooks.first { $0.name == "poll" }?.enabled == false)
        #expect(summary.layoutCalls == 9998)
        // Without loop boundaries the whole run is one iteration: the storm is still found.
        #expect(try layout.reports().first?.kind == "layout-storm")
    }
}

/// docs/configuration.md documents every variable the preload reads, with its default.
@Suite("configuration documentation")
struct ConfigDocumentationTests {
    @Test("every LOOPHUNTER_* variable of lh_config.h is in docs/configuration.md")
    func documented() throws {
        let header = try String(contentsOf: Native.root.appendingPathComponent("CShim/core/include/lh_config.h"),
                                encoding: .utf8)
        let docs = try String(contentsOf: Native.root.appendingPathComponent("docs/configuration.md"),
                              encoding: .utf8)
        // Rows look like:    X(threshold, "THRESHOLD", 100, ...
        // Numbers: X(field, "NAME", default, min, max, ...); flags: X(field, "NAME", false, ...);
        // text: X(field, "NAME", capacity, "default", ...).
        let rows = header.split(separator: "\n").compactMap { line -> (name: String, def: String)? in
            guard let open = line.range(of: "X("), line.contains("\"") else { return nil }
            let fields = line[open.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 4, fields[1].hasPrefix("\"") else { return nil }
            let name = fields[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if Int(fields[3]) != nil { return (name, fields[2]) }                 // number
            if fields[2] == "false" || fields[2] == "true" { return (name, fields[2] == "true" ? "1" : "0") }
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)  // text: 2nd string
            return (name, quoted.count > 3 ? String(quoted[3]) : "")
        }
        // The rows read from the header are every variable the parser itself walks.
        final class Names: @unchecked Sendable { var all: [String] = [] }
        let names = Names()
        var cfg = ConfigTests.defaults
        withExtendedLifetime(names) {
            lh_config_visit(&cfg, { ctx, name, _, _, _ in
                Unmanaged<Names>.fromOpaque(ctx!).takeUnretainedValue().all.append(String(cString: name!))
            }, Unmanaged.passUnretained(names).toOpaque())
        }
        #expect(rows.map { "LOOPHUNTER_" + $0.name } == names.all, "\(rows)")
        for (name, def) in rows {
            let row = docs.split(separator: "\n").first { $0.hasPrefix("| `LOOPHUNTER_\(name)`") }
            #expect(row != nil, "LOOPHUNTER_\(name) is not documented")
            if let row, !def.isEmpty {
                // The default, alone or with a gloss: `67108864` (64 MiB).
                #expect(row.contains("| `\(def)` |") || row.contains("| `\(def)` ("),
                        "documented default of LOOPHUNTER_\(name) is not \(def)")
            }
        }
    }
}
