import ArgumentParser
import Foundation
import LoopHunterReport

/// How findings are printed: shared by `run` and `report`.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .text

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the findings to this file instead.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: "Colour in the text format: auto (a terminal, NO_COLOR unset), always, never.")
    var color: ColorChoice = .auto

    @Flag(name: .customLong("no-symbolize"), help: "Do not run llvm-symbolizer: show only the names the reports carry.")
    var noSymbolize = false

    @Option(name: .long, help: ArgumentHelp("SARIF: give source files relative to this directory (your repository).", valueName: "dir"))
    var sourceRoot: String?

    @Flag(name: .long, help: "Exit with status 3 when anything not suppressed was found (a CI gate); with run, 4 when LoopHunter did not see the program.")
    var failOnBreach = false

    @Option(name: .long, help: ArgumentHelp("""
        Suppression rules (repeatable): findings a rule matches are listed apart as suppressed and do not \
        count for --fail-on-breach. One rule per line, conditions key:value all of which must hold \
        (finding:ID, kind:KIND, type:GLOB, name:GLOB, function:GLOB), an optional # reason.
        """, valueName: "file"))
    var suppress: [String] = []

    @Option(name: .long, help: ArgumentHelp("Write one suppression rule per finding (by its id) to this file: a baseline for --suppress.",
                                            valueName: "file"))
    var writeSuppressions: String?

    func validate() throws {
        for (option, path) in [("--output", output), ("--write-suppressions", writeSuppressions)] {
            guard let path else { continue }
            if path.isEmpty { throw ValidationError("\(option) needs a file name (or leave it out)") }
            let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) || !isDirectory.boolValue {
                throw ValidationError("\(option) \(path): the directory \(parent) does not exist; create it or choose another path")
            }
        }
        do {
            _ = try SuppressionList.load(suppress)
        } catch {
            throw ValidationError(error.description)
        }
        if let sourceRoot, !FileManager.default.fileExists(atPath: sourceRoot) {
            throw ValidationError("--source-root \(sourceRoot) does not exist; give your repository's top directory")
        }
    }
}
