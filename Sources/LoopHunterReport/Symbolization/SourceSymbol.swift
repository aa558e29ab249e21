/// A function and, when debug information has it, its source location.
public struct SourceSymbol: Hashable, Sendable, Codable {
    public let function: String?
    public let file: String?
    public let line: Int?
    public let column: Int?

    public init(function: String?, file: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.function = function
        self.file = file
        self.line = line
        self.column = column
    }

    /// `scenario_loop.c:42` (file name only), or nil without a file.
    public var shortLocation: String? {
        guard let file else { return nil }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        guard let line, line > 0 else { return name }
        return "\(name):\(line)"
    }
}
