import Foundation
import Testing

/// One run of the cause corpus (Tests/Programs/causes, built by scripts/build-cause-programs.sh):
/// a C program as built (`gtk3-ping-pong`), or a Python or GJS program run for one GTK
/// (`py-gtk4-same-text`), with the truth its source states in its `LOOPHUNTER-TRUTH` line.
package struct CorpusProgram: Sendable, CustomTestStringConvertible {
    /// What the source says the program does: a loop (the looping widget's types and names, the
    /// cause kind, the app function that re-requests layout; each field may list alternatives), or
    /// healthy.
    package struct Truth: Sendable {
        package let loops: Bool
        package let widgetTypes: [String]
        package let names: [String]
        package let cause: String?
        /// Every cause kind the line names (`cause=deferred,in-layout`: a loop of two requests, either
        /// of which may be the one reported).
        package let causes: [String]
        package let functions: [String]
    }

    package let name: String
    /// The command as scripts/causes/corpus-list.sh gives it: the program, or `env CAUSE_GTK=N`
    /// and the interpreter and the script.
    package let command: [String]
    package let truth: Truth
    /// A C program: its functions are named in native stacks (built with -rdynamic). A script's
    /// functions are the interpreter's frames there.
    package let isNative: Bool
    /// The program's source file (the script a Python or GJS run executes).
    package let sourceFile: String

    package var testDescription: String { name }

    package static let source = Native.root.appendingPathComponent("Tests/Programs/causes")
    package static let built = Native.release.appendingPathComponent("cause-programs")

    /// Every run of the corpus, as scripts/causes/corpus-list.sh lists them for run-corpus.sh (each C
    /// program built, then each script for GTK 3 and GTK 4). Empty when the programs are not built.
    package static func all() -> [CorpusProgram] {
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("lh-corpus-\(getpid()).tsv").path
        defer { try? FileManager.default.removeItem(atPath: list) }
        let script = Native.root.appendingPathComponent("scripts/causes/corpus-list.sh").path
        let run = HostRun.run(["/bin/bash", "-c", #". "$1" && corpus_list "$2" "$3" "$4""#, "corpus",
                               script, list, built.path, source.path])
        guard run.status == 0, let text = try? String(contentsOfFile: list, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> CorpusProgram? in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, let truth = truth(of: URL(fileURLWithPath: fields[1]),
                                                       variant: fields[0].contains("gtk4") ? "gtk4" : "gtk3") else { return nil }
            return CorpusProgram(name: fields[0], command: fields[2].split(separator: " ").map(String.init), truth: truth,
                                 isNative: fields[1].hasSuffix(".c"), sourceFile: fields[1])
        }
    }

    /// The truth line among a source's first 5 lines; a `LOOPHUNTER-TRUTH[gtkN]:` line for the
    /// variant wins over the plain one.
    static func truth(of file: URL, variant: String) -> Truth? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        var plain: String?, special: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(5) {
            guard let range = line.range(of: "LOOPHUNTER-TRUTH") else { continue }
            var rest = line[range.upperBound...]
            var target: String?
            if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                target = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            guard rest.hasPrefix(":") else { continue }
            let value = rest.dropFirst().trimmingCharacters(in: .whitespaces)
            if target == nil { plain = value } else if target == variant { special = value }
        }
        guard let line = special ?? plain else { return nil }
        let words = line.split(separator: " ").map(String.init)
        var fields: [String: [String]] = [:]
        for word in words.dropFirst() {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1].split(separator: ",").map(String.init) }
        }
        return Truth(loops: words.first == "loop", widgetTypes: fields["widget"] ?? fields["object"] ?? [], names: fields["name"] ?? [],
                     cause: fields["cause"]?.first, causes: fields["cause"] ?? [], functions: fields["function"] ?? [])
    }
}
