import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Reading report files: the version check and the per-file messages.
@Suite("report files")
struct ReportFileTests {
    @Test("a future major version is refused with both versions named")
    func futureVersion() {
        let data = Data(#"{"schema": "loophunter/report", "version": "2.0", "kind": "x"}"#.utf8)
        #expect(throws: ReportFileError.unsupportedVersion(path: "/r/a.json", found: "2.0", supported: .current)) {
            try ReportFile.decode(data, path: "/r/a.json")
        }
        let message = ReportFileError.unsupportedVersion(path: "/r/a.json", found: "2.0", supported: .current).description
        #expect(message.contains("/r/a.json") && message.contains("2.0") && message.contains("1.x"))
    }

    @Test("empty, truncated, foreign and malformed files each get their own message")
    func badFiles() {
        #expect(throws: ReportFileError.empty(path: "e")) { try ReportFile.decode(Data(), path: "e") }
        #expect(throws: ReportFileError.notLoopHunter(path: "f")) {
            try ReportFile.decode(Data(#"{"hello": 1}"#.utf8), path: "f")
        }
        do {
            _ = try ReportFile.decode(Data(#"{"schema": "loophunter/report", "vers"#.utf8), path: "t")
            Issue.record("a truncated file decoded")
        } catch {
            guard case .notJSON(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == "t")
        }
        do {
            _ = try ReportFile.decode(Data(#"{"schema": "loophunter/report", "version": "1.3", "kind": 5}"#.utf8), path: "m")
            Issue.record("a malformed report decoded")
        } catch {
            guard case .invalid(let path, let detail) = error else { Issue.record("\(error)"); return }
            #expect(path == "m" && detail.contains("kind"), "\(detail)")
        }
    }

    @Test("minor versions are read (they only add fields)")
    func minorVersion() throws {
        let (_, text) = ComposedReport.compose(type: Array("T".utf8), name: [])
        var json = try #require(String(data: text, encoding: .utf8))
        // Whatever minor version the preload's writer is at (the reader may be ahead of it).
        json = json.replacingOccurrences(of: #""version": "1\.[0-9]+""#, with: "\"version\": \"1.7\",\n  \"new_field\": [1, 2]",
                                         options: .regularExpression)
        if case .report(let r) = try ReportFile.decode(Data(json.utf8), path: "x") {
            #expect(r.version == "1.7")
        } else {
            Issue.record("not decoded as a report")
        }
    }
}
