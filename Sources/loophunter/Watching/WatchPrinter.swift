import Foundation
import LoopHunterReport

/// Prints what lands in a watched directory, one file at a time (the symbolizer's cache carries
/// over, so a frame seen before costs nothing).
struct WatchPrinter {
    let format: WatchFormat
    let colors: Bool
    let symbolizer: (any Symbolizing)?
    let directory: String

    func show(_ name: String) {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name)
        let file: ReportFile
        do {
            file = try ReportFile.load(path)
        } catch {
            Diagnostics.say(error.description)
            return
        }
        switch file {
        case .report(let report):
            let collection = ReportCollection(directory: directory, reports: [LocatedReport(path: path.path, report: report)])
            let analysis = Analyzer(symbolizer: symbolizer).analyze(collection, directoryLabel: directory)
            guard let finding = analysis.findings.first else { return }
            switch format {
            case .text: emit(TextFormatter(colors: colors).block(finding) + "\n")
            case .json: emit(Self.jsonLine(finding))
            }
        case .summary(let summary):
            let overview = ProcessOverview(summary)
            switch format {
            case .text: emit(TextFormatter(colors: colors).processLine(overview) + "\n")
            case .json: emit(Self.jsonLine(overview))
            }
        }
    }

    /// Whether `name` is a summary its process still keeps current (schema 1.5 `running`); false
    /// for one written for good, an older one, or a file that does not read (show names why).
    func isRunningSummary(_ name: String) -> Bool {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name)
        guard case .summary(let summary) = try? ReportFile.load(path) else { return false }
        return summary.state == "running"
    }

    private func emit(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func jsonLine<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }
}
