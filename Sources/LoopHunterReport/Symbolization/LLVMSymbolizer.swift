import Foundation

/// Symbolizes with llvm-symbolizer: one process per call of ``symbolize(_:)`` for all addresses
/// (batch mode), after checking each module on disk has the build-id the report recorded.
/// Results are cached per (build-id, offset), so the same frame in many reports costs once.
///
/// llvm-symbolizer is honest on stripped libraries: a function without a symbol stays unnamed
/// rather than taking the nearest exported name. Swift and C++ names are demangled.
public final class LLVMSymbolizer: Symbolizing, @unchecked Sendable {
    public let tool: String?
    private let demangler: Demangler
    private let lock = NSLock()
    private var cache: [CodeAddress: SymbolLookup] = [:]
    private var checks: [String: ModuleCheck] = [:]
    private var runs = 0

    /// `tool`: the llvm-symbolizer to run; nil when none is installed (every frame then falls back
    /// to the names the report carries, and ``description`` says so).
    public init(tool: String? = ToolLocator.symbolizer(), demangler: Demangler = Demangler()) {
        self.tool = tool
        self.demangler = demangler
    }

    public var description: String {
        guard let tool else {
            return "no llvm-symbolizer found (install llvm, or use the Swift toolchain's): names only where the process proved them"
        }
        return "llvm-symbolizer (\(tool))"
    }

    /// llvm-symbolizer processes started so far (for tests and benchmarks: one per batch).
    public var processesStarted: Int {
        lock.lock()
        defer { lock.unlock() }
        return runs
    }

    public func symbolize(_ addresses: Set<CodeAddress>) -> [CodeAddress: SymbolLookup] {
        lock.lock()
        defer { lock.unlock() }
        var result: [CodeAddress: SymbolLookup] = [:]
        var queries: [CodeAddress] = []
        for address in addresses {
            if let cached = cache[address] {
                result[address] = cached
                continue
            }
            let check = moduleCheck(address)
            if tool != nil, check.trusted {
                queries.append(address)
            } else {
                let note = tool == nil ? "no llvm-symbolizer" : check.note(path: address.module, recorded: address.buildID)
                result[address] = SymbolLookup(symbols: [], source: .none, note: note)
            }
        }
        if let tool, !queries.isEmpty {
            queries.sort { ($0.module, $0.lookupOffset) < ($1.module, $1.lookupOffset) }
            runs += 1
            let lines = BatchTool.run(tool, arguments: ["--output-style=JSON", "--functions=linkage", "--inlines", "--demangle"],
                                      input: queries.map(Self.query))
            let parsed = lines.map { $0.count == queries.count ? $0.map(Self.parse) : [] } ?? []
            for (i, address) in queries.enumerated() {
                let symbols = i < parsed.count ? parsed[i] : []
                result[address] = symbols.isEmpty
                    ? SymbolLookup(symbols: [], source: .none, note: lines == nil ? "llvm-symbolizer failed" : nil)
                    : SymbolLookup(symbols: symbols, source: .debugInfo, note: nil)
            }
            result = demangled(result)
        }
        for (address, lookup) in result { cache[address] = lookup }
        return result
    }

    private func moduleCheck(_ address: CodeAddress) -> ModuleCheck {
        let key = address.module + "\u{0}" + (address.buildID ?? "")
        if let check = checks[key] { return check }
        let check = ModuleCheck.check(path: address.module, recorded: address.buildID)
        checks[key] = check
        return check
    }

    /// `CODE "/path/lib.so" 0x1233`: for a return address, the call instruction, one byte before
    /// it; for a callback's entry address, the address itself (``CodeAddress/lookupOffset``).
    static func query(_ address: CodeAddress) -> String {
        "CODE \"\(address.module)\" 0x\(String(address.lookupOffset, radix: 16))"
    }

    /// One JSON line of `--output-style=JSON`: `{"Symbol": [{"FunctionName", "FileName", "Line", "Column"}]}`.
    static func parse(_ line: String) -> [SourceSymbol] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let symbols = object["Symbol"] as? [[String: Any]] else { return [] }
        return symbols.compactMap { s in
            let function = (s["FunctionName"] as? String).flatMap { $0 == "??" || $0.isEmpty ? nil : $0 }
            let file = (s["FileName"] as? String).flatMap { $0 == "??" || $0.isEmpty ? nil : $0 }
            let line = (s["Line"] as? Int).flatMap { $0 > 0 ? $0 : nil }
            let column = (s["Column"] as? Int).flatMap { $0 > 0 ? $0 : nil }
            guard function != nil || file != nil else { return nil }
            return SourceSymbol(function: function, file: file, line: line, column: column)
        }
    }

    private func demangled(_ lookups: [CodeAddress: SymbolLookup]) -> [CodeAddress: SymbolLookup] {
        let names = Set(lookups.values.flatMap { $0.symbols.compactMap(\.function) }.filter {
            Demangler.isSwift($0) || Demangler.isCxx($0)
        })
        guard !names.isEmpty else { return lookups }
        let map = demangler.demangle(names)
        return lookups.mapValues { lookup in
            SymbolLookup(symbols: lookup.symbols.map {
                SourceSymbol(function: $0.function.map { map[$0] ?? $0 }, file: $0.file, line: $0.line, column: $0.column)
            }, source: lookup.source, note: lookup.note)
        }
    }
}
