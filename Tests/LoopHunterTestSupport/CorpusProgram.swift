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
        package let functions: [String]
    }

    package let name: String
    /// The command: the program, or the interpreter and the script.
    package let command: [String]
    /// Environment the command needs (`CAUSE_GTK` for scripts).
    package let environment: [String: String]
    package let truth: Truth
    /// A C program: its functions are named in native stacks (built with -rdynamic). A script's
    /// functions are the interpreter's frames there.
    package let isNative: Bool

    package var testDescription: String { name }

    package static let source = Native.root.appendingPathComponent("Tests/Programs/causes")
    package static let built = Native.release.appendingPathComponent("cause-programs")

    /// Every run of the corpus: each C program built, then each script twice (GTK 3 and GTK 4), as
    /// scripts/causes/corpus-list.sh lists them. Empty when the programs are not built.
    package static func all() -> [CorpusProgram] {
        let fm = FileManager.default
        var programs: [CorpusProgram] = []
        let binaries = ((try? fm.contentsOfDirectory(atPath: built.path)) ?? []).filter {
            ($0.hasPrefix("gtk3-") || $0.hasPrefix("gtk4-")) && !$0.hasSuffix(".tmp")
        }.sorted()
        for name in binaries {
            let base = String(name.dropFirst(5)).replacingOccurrences(of: "-", with: "_")
            let candidates = ["\(base).c", "\(name.prefix(4))_\(base).c"]
            guard let file = candidates.map({ source.appendingPathComponent($0) }).first(where: { fm.fileExists(atPath: $0.path) }),
                  let truth = truth(of: file, variant: String(name.prefix(4))) else { continue }
            programs.append(CorpusProgram(name: name, command: [built.appendingPathComponent(name).path], environment: [:],
                                          truth: truth, isNative: true))
        }
        let scripts = ((try? fm.contentsOfDirectory(atPath: source.path)) ?? []).filter {
            ($0.hasPrefix("py_") && $0.hasSuffix(".py")) || ($0.hasPrefix("gjs_") && $0.hasSuffix(".js"))
        }.sorted()
        for script in scripts {
            let file = source.appendingPathComponent(script)
            let stem = (script as NSString).deletingPathExtension
            let language = String(stem.prefix { $0 != "_" })
            let rest = stem.dropFirst(language.count + 1).replacingOccurrences(of: "_", with: "-")
            for gtk in [3, 4] {
                guard let truth = truth(of: file, variant: "gtk\(gtk)") else { continue }
                let interpreter = language == "py" ? "/usr/bin/python3" : "/usr/bin/gjs"
                programs.append(CorpusProgram(name: "\(language)-gtk\(gtk)-\(rest)", command: [interpreter, file.path],
                                              environment: ["CAUSE_GTK": "\(gtk)"], truth: truth, isNative: false))
            }
        }
        return programs
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
        return Truth(loops: words.first == "loop", widgetTypes: fields["widget"] ?? [], names: fields["name"] ?? [],
                     cause: fields["cause"]?.first, functions: fields["function"] ?? [])
    }
}
