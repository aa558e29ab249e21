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

    @Flag(name: .long, help: "Exit with status 3 when anything was found (a CI gate); with run, 4 when LoopHunter did not see the program.")
    var failOnBreach = false

    func validate() throws {
        if let output, output.isEmpty {
            throw ValidationError("--output needs a file name (or leave it out to print)")
        }
        if let output {
            let parent = URL(fileURLWithPath: output).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) || !isDirectory.boolValue {
                throw ValidationError("--output \(output): the directory \(parent) does not exist; create it or choose another path")
            }
        }
        if let sourceRoot, !FileManager.default.fileExists(atPath: sourceRoot) {
            throw ValidationError("--source-root \(sourceRoot) does not exist; give your repository's top directory")
        }
    }
}
