/// Demangles Swift names (`$s...`, with swift-demangle) and C++ names (`_Z...`, with llvm-cxxfilt
/// or c++filt), in batch. Names it cannot demangle come back unchanged.
public struct Demangler: Sendable {
    public let swiftTool: String?
    public let cxxTool: String?

    public init(swiftTool: String? = ToolLocator.swiftDemangle(), cxxTool: String? = ToolLocator.cxxDemangle()) {
        self.swiftTool = swiftTool
        self.cxxTool = cxxTool
    }

    static func isSwift(_ name: String) -> Bool {
        ["$s", "_$s", "$S", "_$S", "$e", "_T0"].contains { name.hasPrefix($0) }
    }

    static func isCxx(_ name: String) -> Bool { name.hasPrefix("_Z") }

    /// Demangled forms of `names`, keyed by the mangled name.
    public func demangle(_ names: Set<String>) -> [String: String] {
        var result: [String: String] = [:]
        let swiftNames = names.filter(Self.isSwift).sorted()
        if let swiftTool, !swiftNames.isEmpty,
           let lines = BatchTool.run(swiftTool, arguments: ["--compact"], input: swiftNames), lines.count == swiftNames.count {
            for (name, line) in zip(swiftNames, lines) where !line.isEmpty { result[name] = line }
        }
        let cxxNames = names.filter(Self.isCxx).sorted()
        if let cxxTool, !cxxNames.isEmpty,
           let lines = BatchTool.run(cxxTool, arguments: [], input: cxxNames), lines.count == cxxNames.count {
            for (name, line) in zip(cxxNames, lines) where !line.isEmpty { result[name] = line }
        }
        return result
    }
}
