import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// The event-loop health kinds (schema 1.3) in every format: golden files from the health
/// fixtures, the stuck frame and stall facts in the text, the per-window time-to-first-frame
/// table in the process view, both stacks of a timer outliving its target, and SARIF and JUnit
/// checked by the same consumers as the other formats.
@Suite("Event-loop health: formats")
struct HealthFormatTests {
    @Test("text format, without and with colours")
    func text() throws {
        let a = try HealthFixtures.analysis()
        let plain = TextFormatter(colors: false).format(a)
        try Golden.check(plain, "health.txt")
        #expect(plain.contains("stuck    clock_nanosleep (libc.so.6), in the system call clock_nanosleep"))
        #expect(plain.contains("stall    2500 ms, over (the thread returned to its loop); stack sampled 1701 ms in, by signal on the thread itself, while running"))
        #expect(plain.contains("by scan from outside"))
        #expect(plain.contains("created  (where the source was created; ▶ your code)"))
        #expect(plain.contains("Windows of pid 5202 gtk3-health (time to first frame, limit 2000 ms); 5 windows made: 3 listed, 2 never shown:"))
        #expect(plain.contains("pid 5202 gtk3-health: toolkit GTK 3; 116 iterations, 71 layouts, 7 objects (widgets) of 3 classes tracked"),
                "schema 1.5: the toolkit and what was tracked")
        #expect(plain.contains("pid 5101 toykit-demo: 1"), "a 1.3 summary names no toolkit")
        #expect(plain.contains("never painted (waited 1500 ms)"))
        #expect(plain.contains("2 stalls (longest 2500 ms)") && plain.contains("timers: 640 created, 114 destroyed, 526 live"))

        let colored = TextFormatter(colors: true).format(a)
        #expect(colored.contains("\u{1B}[") && colored.contains("clock_nanosleep (libc.so.6), in the system call clock_nanosleep"))
        #expect(colored.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) == plain,
                "colours change nothing but the escapes")
    }

    @Test("markdown format")
    func markdown() throws {
        let text = MarkdownFormatter().format(try HealthFixtures.analysis())
        try Golden.check(text, "health.md")
        #expect(text.contains("#### Windows of pid 5202 gtk3\\-health (time to first frame, limit 2000 ms)")
                || text.contains("#### Windows of pid 5202 gtk3-health (time to first frame, limit 2000 ms)"))
        #expect(text.contains("| window | title | since | time to first frame | slowest step |"))
        #expect(text.contains("Where the source was created (▶ your code):"))
    }

    @Test("html format, with a timeline per finding and the windows table")
    func html() throws {
        let text = HTMLFormatter().format(try HealthFixtures.analysis())
        try Golden.check(text, "health.html")
        let elements = try XMLCheck.expectWellFormed(text)
        #expect(elements.filter { $0.name == "svg" }.count == 5, "one timeline per finding")
        #expect(text.contains("<table class=\"windows\">") && text.contains("<dt>stuck</dt><dd><strong>"))
        #expect(text.contains("<summary>Where the source was created: 3 frames, 2 in your code (▶)</summary>"))
    }

    @Test("json format")
    func json() throws {
        let text = OutputFormat.json.formatter().format(try HealthFixtures.analysis())
        try Golden.check(text, "health.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let findings = try #require((object["analysis"] as? [String: Any] ?? object)["findings"] as? [[String: Any]])
        #expect(findings.contains { ($0["timer"] as? [String: Any])?["data"] as? String == "0x5600ab3d0010" })
        #expect(findings.contains { ($0["stall"] as? [String: Any])?["method"] as? String == "scan" })
        #expect(findings.contains { $0["createdStack"] != nil || $0["created_stack"] != nil })
    }

    @Test("sarif format: rules and properties, checked by sarif-pydantic and sarif-tools")
    func sarif() throws {
        let text = SARIFFormatter().format(try HealthFixtures.analysis())
        try Golden.check(text, "health.sarif")
        try FormatValidators.validate(sarif: text, label: "health")
        let run = try #require(FormatValidators.sarifRuns(text).first)
        let rules = (run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }?["rules"] as? [[String: Any]]
        #expect(Set(rules?.compactMap { $0["name"] as? String } ?? [])
                == ["EventLoopStall", "SlowWindow", "TimerStorm", "TimerOutlivesTarget"])
        let results = try #require(run["results"] as? [[String: Any]])
        let outlives = try #require(results.first { $0["ruleId"] as? String == "timer-outlives-target" })
        #expect((outlives["stacks"] as? [Any])?.count == 2, "where freed and where created")
        let health = (outlives["properties"] as? [String: Any])?["health"] as? [String: Any]
        #expect(health?["timerCallback"] as? String == "blink_cursor" && health?["timerData"] as? String == "0x5600ab3d0010")
        let stall = try #require(results.first { $0["ruleId"] as? String == "stall" })
        #expect(((stall["properties"] as? [String: Any])?["health"] as? [String: Any])?["stallMethod"] != nil)
    }

    @Test("junit format, checked by junitparser")
    func junit() throws {
        let text = JUnitFormatter().format(try HealthFixtures.analysis())
        try Golden.check(text, "health.junit.xml")
        let elements = try XMLCheck.expectWellFormed(text)
        #expect(elements.filter { $0.name == "failure" }.count == 5)
        try FormatValidators.validate(junit: text, failures: 5, label: "health")
        #expect(text.contains("Windows of pid 5202 gtk3-health"))
    }
}
