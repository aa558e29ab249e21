import Foundation
import LoopHunterReport

/// A symbolizer answering from Tests/Fixtures/symbols.json, so golden outputs do not depend on the
/// machine: `symbols` maps `<module file name>@<offset>` to symbols; `stale_modules` were rebuilt
/// since the reports (build-id mismatch); `stripped_modules` have no symbols.
package struct StubSymbolizer: Symbolizing {
    package struct Table: Decodable {
        package let symbols: [String: [Entry]]
        package let stale_modules: [String]
        package let stripped_modules: [String]
    }

    package struct Entry: Decodable {
        package let function: String?
        package let file: String?
        package let line: Int?
        package let column: Int?
    }

    package let table: Table
    package var description: String { "llvm-symbolizer (fixture table)" }

    package init() throws {
        let url = Native.root.appendingPathComponent("Tests/Fixtures/symbols.json")
        table = try JSONDecoder().decode(Table.self, from: Data(contentsOf: url))
    }

    package func symbolize(_ addresses: Set<CodeAddress>) -> [CodeAddress: SymbolLookup] {
        var result: [CodeAddress: SymbolLookup] = [:]
        for address in addresses {
            let name = address.module.split(separator: "/").last.map(String.init) ?? address.module
            if table.stale_modules.contains(name) {
                result[address] = SymbolLookup(symbols: [], source: .none,
                                               note: "\(address.module) was rebuilt since the report (build-id 123456789abc on disk, \(address.buildID.map { String($0.prefix(12)) } ?? "none") in the report)")
            } else if table.stripped_modules.contains(name) {
                result[address] = SymbolLookup(symbols: [], source: .none, note: nil)
            } else if let entries = table.symbols["\(name)@0x\(String(address.offset, radix: 16))"], !entries.isEmpty {
                result[address] = SymbolLookup(symbols: entries.map {
                    SourceSymbol(function: $0.function, file: $0.file, line: $0.line, column: $0.column)
                }, source: .debugInfo, note: nil)
            }
        }
        return result
    }
}
