import Foundation
import Testing

/// One program of the Qt corpus (Tests/Programs/qt, built by scripts/build-qt-programs.sh): a C++
/// source built for Qt 5 and Qt 6 (`qt5-wrap-label`, `qt6-wrap-label`), with the truth its source
/// states in its `LOOPHUNTER-TRUTH` line (the fields of the cause corpus; `object=` names the looping
/// objects' classes as Qt's meta-objects give them).
package struct QtProgram: Sendable, CustomTestStringConvertible {
    package let name: String
    /// The source's base name, the mechanism (`wrap_label`).
    package let mechanism: String
    package let major: Int
    package let path: String
    package let sourceFile: String
    package let truth: CorpusProgram.Truth
    /// The program's modules, from its source's `QT-MODULES:` line (Widgets, Quick).
    package let modules: [String]

    package var testDescription: String { name }

    package static let source = Native.root.appendingPathComponent("Tests/Programs/qt")
    package static let built = Native.release.appendingPathComponent("qt-programs")

    /// Every program built (empty when none is).
    package static func all() -> [QtProgram] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: built.path)) ?? []
        return names.sorted().compactMap { name -> QtProgram? in
            guard name.hasPrefix("qt5-") || name.hasPrefix("qt6-"), let major = Int(name.dropFirst(2).prefix(1)) else { return nil }
            let base = String(name.dropFirst(4)).replacingOccurrences(of: "-", with: "_")
            let candidates = ["\(base).cpp", "qt\(major)_\(base).cpp"].map { source.appendingPathComponent($0) }
            guard let file = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }),
                  let truth = CorpusProgram.truth(of: file, variant: "qt\(major)") else { return nil }
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            let modulesLine = text.split(separator: "\n").prefix(5).first { $0.contains("QT-MODULES:") }
            let modules = modulesLine.map { $0.components(separatedBy: "QT-MODULES:")[1].split(whereSeparator: { $0 == "," || $0 == " " }).map {
                $0.trimmingCharacters(in: .whitespaces) } } ?? []
            return QtProgram(name: name, mechanism: base, major: major, path: built.appendingPathComponent(name).path,
                             sourceFile: file.path, truth: truth, modules: modules)
        }
    }

    /// Whether the truth's re-requesting function is one of the program's own C++ functions (named in
    /// native stacks: the programs are built with -rdynamic), not a QML function.
    package var functionIsNative: Bool {
        let run = HostRun.run(["/usr/bin/nm", "-D", "--defined-only", path])
        return truth.functions.contains { f in run.stdout.contains("\(f.count)\(f)") || run.stdout.contains(" \(f)\n") }
    }

    /// Whether a (possibly mangled) symbol names one of the truth's functions.
    package func names(_ symbol: String) -> Bool {
        truth.functions.contains { symbol == $0 || symbol.contains("\($0.count)\($0)") || symbol.hasPrefix("\($0)(") }
    }
}
