import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// The retry rules against a scripted faulty collector, and crashes of the shipper itself.
@Suite("ship: faults")
struct ShipFaultTests {
    @Test("429 + Retry-After, 503 + HTTP-date, 500, 400, reset, stall, then recovery: every report accepted exactly once by id, none lost")
    func scriptedFaults() throws {
        var reports = try ShipReports("faults")
        defer { reports.remove() }
        try reports.add(40)
        let poison = reports.ids[17]
        let collector = try ShipCollector(mode: "otlp", ["--script", "429:ra=1,503:date=2,500,400,reset,stall=6", "--poison", poison])
        defer { collector.stop() }
        let arguments = [reports.path, "--to", collector.url, "--batch-size", "4", "--concurrency", "1", "--request-timeout", "2"]

        // Run 1: everything but the 500'd batch gets through; that one stays pending (OTLP never
        // retries a 500), the poisoned report is rejected.
        let first = HostRun.ship(arguments)
        #expect(first.status == 75, "reports still pending: \(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("4 still pending: the collector answered 500 Internal Server Error"), "\(first.stdout)")
        #expect(first.stdout.contains("1 rejected (1 by the collector"), "\(first.stdout)")
        for said in ["429 Too Many Requests", "(Retry-After)", "503 Service Unavailable", "connection reset by peer",
                     "no answer within the request timeout"] {
            #expect(first.stderr.contains(said), "progress names \(said): \(first.stderr)")
        }
        let firstRun = collector.entries()
        let steps = Dictionary(firstRun.filter { $0.step != "ok" }.map { ($0.step, $0) }, uniquingKeysWith: { first, _ in first })
        // Retried: 429, 503, reset, stall carried the same ids again later.
        for step in ["429:ra=1", "503:date=2", "stall=6"] {
            let ids = try #require(steps[step]?.ids)
            #expect(firstRun.contains { $0.n > steps[step]!.n && $0.ids == ids }, "\(step) was retried with the same batch")
        }
        let reset = try #require(steps["reset"])
        #expect(firstRun.contains { $0.n == reset.n + 1 && $0.bytes == reset.bytes }, "the reset request was sent again")
        // Never retried in this run: the 500'd batch; the 400'd batch only in strictly smaller parts.
        let held = try #require(steps["500"]?.ids)
        #expect(!firstRun.contains { $0.n > steps["500"]!.n && !Set($0.ids ?? []).isDisjoint(with: held) }, "a 500 is not retried")
        let refused = try #require(steps["400"]?.ids)
        #expect(!firstRun.contains { $0.n > steps["400"]!.n && $0.ids == refused }, "a 400 is never sent again as it was")
        #expect(reports.names(in: "rejected").contains { $0.hasSuffix(".json") && $0.contains("-\(200_017)-") })
        let response = try String(contentsOfFile: reports.spool + "/rejected/" + reports.names(in: "rejected").first { $0.hasSuffix(".response") }!,
                                  encoding: .utf8)
        #expect(response.contains("400") && response.contains("poison for this test"), "the collector's message is kept: \(response)")

        // Run 2, the collector recovered: the held batch goes; the rejected one is not sent again.
        let second = HostRun.ship(arguments)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(second.stdout.contains("4 sent, 0 rejected, 0 still pending"), "\(second.stdout)")

        let accepted = collector.acceptedCounts()
        #expect(Set(accepted.keys) == Set(reports.ids).subtracting([poison]), "none lost")
        #expect(accepted[poison] == nil)
        // Duplicates on the wire are allowed (the stalled request was committed, then retried);
        // after de-duplication by id each report is there once.
        #expect(collector.malformed().isEmpty, "\(collector.malformed())")
        #expect(reports.names(in: "sent").count == 39 && reports.names(in: "pending").isEmpty && reports.names(in: "in-flight").isEmpty)
    }

    @Test("401 is not retried: shipping stops, every report stays pending, the message says to check the token")
    func unauthorized() throws {
        var reports = try ShipReports("401")
        defer { reports.remove() }
        try reports.add(6)
        let collector = try ShipCollector(mode: "otlp", ["--token", "right-token"])
        defer { collector.stop() }
        let run = HostRun.ship([reports.path, "--to", collector.url, "--concurrency", "1"])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("6 still pending: the collector answered 401 Unauthorized") && run.stdout.contains("check the token"),
                "\(run.stdout)")
        #expect(collector.entries().count == 1, "one try, no retry")
        #expect(reports.names(in: "pending").count == 6 && reports.names(in: "in-flight").isEmpty)
    }

    @Test("kill -9 at random points, 100 times, against a slow collector, then one clean run: every report delivered, none torn")
    func killNine() throws {
        var reports = try ShipReports("kill9")
        defer { reports.remove() }
        try reports.add(150)
        let originals = Dictionary(uniqueKeysWithValues: reports.reportNames.map {
            ($0, FileManager.default.contents(atPath: reports.path + "/" + $0)!)
        })
        let collector = try ShipCollector(mode: "otlp", ["--delay", "0.03"])
        defer { collector.stop() }
        let arguments = ["ship", reports.path, "--to", collector.url, "--batch-size", "2", "--concurrency", "2", "--quiet"]
        var generator = SystemRandomNumberGenerator()
        var killedMidway = 0
        for _ in 0..<100 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Native.cli)
            process.arguments = arguments
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.runWithDefaultSignalMask()
            usleep(UInt32.random(in: 0...250_000, using: &generator))
            if process.isRunning { killedMidway += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        // The backlog drains as the runs go on, so later shippers may finish before their kill; how
        // many land mid-run depends on the machine's speed. What matters is that some did.
        #expect(killedMidway >= 10, "kills landed while shipping (\(killedMidway))")

        let clean = HostRun.ship(Array(arguments.dropFirst()))
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("0 rejected, 0 still pending"), "\(clean.stdout)")
        let accepted = collector.acceptedCounts()
        #expect(Set(accepted.keys) == Set(reports.ids), "every report delivered: \(Set(reports.ids).subtracting(accepted.keys).count) missing")
        #expect(collector.malformed().isEmpty, "no torn or malformed body: \(collector.malformed().prefix(3))")
        #expect(collector.errors.isEmpty, "\(collector.errors)")
        // The spool ends clean, and what it holds is the preload's files, byte for byte.
        #expect(reports.names(in: "pending").isEmpty && reports.names(in: "in-flight").isEmpty && reports.names(in: "rejected").isEmpty)
        #expect(Set(reports.names(in: "sent")) == Set(originals.keys))
        for (name, data) in originals {
            #expect(FileManager.default.contents(atPath: reports.spool + "/sent/" + name) == data, "\(name) not torn")
            #expect(FileManager.default.contents(atPath: reports.path + "/" + name) == data, "\(name) unchanged")
        }
        let owners = (try? FileManager.default.contentsOfDirectory(atPath: reports.spool + "/in-flight")) ?? []
        #expect(owners.isEmpty, "dead shippers' in-flight directories were recovered: \(owners)")
    }

    @Test("two shippers at once: each report delivered, none twice")
    func twoShippers() throws {
        var reports = try ShipReports("two")
        defer { reports.remove() }
        try reports.add(200)
        let collector = try ShipCollector(mode: "otlp", ["--delay", "0.01"])
        defer { collector.stop() }
        let arguments = [reports.path, "--to", collector.url, "--batch-size", "3", "--quiet"]
        let results = IndexedRuns(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            results.set(i, HostRun.ship(arguments))
        }
        for run in results.all {
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        }
        let sent = results.all.compactMap { run -> Int? in
            guard let range = run.stdout.range(of: #"(\d+) sent"#, options: .regularExpression) else { return nil }
            return Int(run.stdout[range].split(separator: " ")[0])
        }
        #expect(sent.reduce(0, +) == 200, "the two runs split the work: \(sent)")
        let accepted = collector.acceptedCounts()
        #expect(Set(accepted.keys) == Set(reports.ids))
        #expect(accepted.values.allSatisfy { $0 == 1 }, "none twice, even on the wire: \(accepted.filter { $0.value > 1 }.count)")
    }
}
