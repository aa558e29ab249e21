/// Choices that change how a format renders.
public struct FormatOptions: Sendable {
    /// ANSI colours in the text format (the CLI decides: a TTY, and NO_COLOR unset).
    public var colors: Bool
    /// SARIF: source files under this directory are given relative to it (`uriBaseId` SRCROOT),
    /// as code-scanning UIs expect paths relative to the repository.
    public var sourceRoot: String?

    public init(colors: Bool = false, sourceRoot: String? = nil) {
        self.colors = colors
        self.sourceRoot = sourceRoot
    }
}
