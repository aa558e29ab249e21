import Foundation
import LoopHunterReport

/// Reads a report directory, analyses it and writes the findings: what `report` does, and what
/// `run` does once the program has ended.
struct ReportPipeline {
    let directory: String
    let options: OutputOptions
    /// Where the text goes when no --output is given (`run` keeps stdout for the program).
    let defaultDescriptor: Int32

    /// Writes the findings and returns the outcome (``PipelineOutcome``). `verdict`: what the caller
    /// knows of the run besides the directory (`run`: how the program it started ended); its
    /// sentences replace the directory's own account of what was not seen.
    func execute(verdict: ((ReportCollection) -> RunVerdict)? = nil) -> PipelineOutcome {
        let collection: ReportCollection
        do {
            collection = try ReportDirectoryReader(directory: URL(fileURLWithPath: directory)).read()
        } catch {
            Diagnostics.say(error.description)
            return PipelineOutcome(status: ExitStatus.unusable, blind: true, unseen: [])
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
                return PipelineOutcome(status: ExitStatus.unusable, blind: false, unseen: [])
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
                return PipelineOutcome(status: ExitStatus.unusable, blind: false, unseen: [])
            }
        }
        let nothing = collection.summaries.isEmpty && collection.reports.isEmpty
        var blind = nothing
        if let verdict {
            let judged = verdict(collection)
            analysis = analysis.seeing(judged.sentences)
            blind = judged.blind
        }
        let colors = options.output == nil && options.format == .text
            && options.color.enabled(forDescriptor: defaultDescriptor)
        let text = options.format.formatter(FormatOptions(colors: colors, sourceRoot: options.sourceRoot)).format(analysis)
        if let output = options.output {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                Diagnostics.say("cannot write \(output): \(error.localizedDescription)")
                return PipelineOutcome(status: ExitStatus.unusable, blind: blind, unseen: analysis.unseen ?? [])
            }
        } else {
            FileHandle(fileDescriptor: defaultDescriptor).write(Data(text.utf8))
        }
        // Where the findings went elsewhere (a file, or a format for machines), what was not seen
        // is still said to the person at the terminal.
        if options.output != nil || options.format != .text {
            for sentence in analysis.unseen ?? [] { Diagnostics.say("not seen: \(sentence)") }
        }
        let status: Int32
        if options.failOnBreach && !analysis.findings.isEmpty { // suppressed findings do not count
            status = ExitStatus.findings
        } else if nothing && verdict == nil && collection.problems.isEmpty {
            // (Files that could not be read are the more precise cause: 1.)
            status = ExitStatus.notSeen
        } else {
            status = collection.problems.isEmpty ? ExitStatus.success : ExitStatus.filesSkipped
        }
        return PipelineOutcome(status: status, blind: blind, unseen: analysis.unseen ?? [])
    }
}
