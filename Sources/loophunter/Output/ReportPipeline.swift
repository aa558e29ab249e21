import Foundation
import LoopHunterReport

/// Reads a report directory, analyses it and writes the findings: what `report` does, and what
/// `run` does once the program has ended.
struct ReportPipeline {
    let directory: String
    let options: OutputOptions
    /// Where the text goes when no --output is given (`run` keeps stdout for the program).
    let defaultDescriptor: Int32

    /// The exit status: 2 when the directory cannot be read, 3 for findings (not suppressed ones)
    /// with --fail-on-breach, 1 when some files were skipped, else 0.
    func execute() -> Int32 {
        let collection: ReportCollection
        do {
            collection = try ReportDirectoryReader(directory: URL(fileURLWithPath: directory)).read()
        } catch {
            Diagnostics.say(error.description)
            return ExitStatus.unusable
        }
        for problem in collection.problems { Diagnostics.say(problem.description) }
        let analyzer = Analyzer(symbolizer: options.noSymbolize ? nil : LLVMSymbolizer())
        var analysis = analyzer.analyze(collection, directoryLabel: directory)
        if !options.suppress.isEmpty {
            let suppressions: SuppressionList
            do {
                suppressions = try SuppressionList.load(options.suppress)
            } catch {
                Diagnostics.say(error.description) // changed since the command line was checked
                return ExitStatus.unusable
            }
            let applied = suppressions.apply(to: analysis)
            analysis = applied.analysis
            for rule in applied.unused {
                Diagnostics.say("suppression \(rule.location) (\(rule.text)) matched no finding; remove it if the problem is fixed")
            }
        }
        if let path = options.writeSuppressions {
            do {
                try Data(SuppressionList.template(for: analysis).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                Diagnostics.say("cannot write --write-suppressions \(path): \(error.localizedDescription)")
                return ExitStatus.unusable
            }
        }
        let colors = options.output == nil && options.format == .text
            && options.color.enabled(forDescriptor: defaultDescriptor)
        let text = options.format.formatter(FormatOptions(colors: colors, sourceRoot: options.sourceRoot)).format(analysis)
        if let output = options.output {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                Diagnostics.say("cannot write \(output): \(error.localizedDescription)")
                return ExitStatus.unusable
            }
        } else {
            FileHandle(fileDescriptor: defaultDescriptor).write(Data(text.utf8))
        }
        if options.failOnBreach && !analysis.findings.isEmpty { return ExitStatus.findings }
        return collection.problems.isEmpty ? ExitStatus.success : ExitStatus.filesSkipped
    }
}
