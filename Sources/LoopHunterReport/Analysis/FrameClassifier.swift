/// Decides whose code a frame is in, from its module path.
public struct FrameClassifier: Sendable {
    /// Library file-name prefixes counted as toolkit code, wherever they are installed.
    public var toolkitPrefixes: [String]
    /// Directories whose libraries are the system's (unless a toolkit prefix matches first).
    public var systemDirectories: [String]

    public static let defaultToolkitPrefixes = [
        "libgtk-", "libgdk-", "libgdk_pixbuf", "libglib-", "libgobject-", "libgio-", "libgmodule-",
        "libgthread-", "libpango", "libcairo", "libharfbuzz", "libepoxy", "libgraphene", "libfribidi",
        "libX11", "libxcb", "libXi", "libwayland", "libQt", "libSDL", "libfontconfig", "libfreetype",
        "libtoykit",
    ]

    public init(toolkitPrefixes: [String] = FrameClassifier.defaultToolkitPrefixes,
                systemDirectories: [String] = ["/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/libexec/", "/opt/swift/"]) {
        self.toolkitPrefixes = toolkitPrefixes
        self.systemDirectories = systemDirectories
    }

    public func origin(ofModule module: String?) -> FrameOrigin {
        guard let module, !module.isEmpty else { return .unknown }
        let name = module.split(separator: "/").last.map(String.init) ?? module
        if name.hasPrefix("libloophunter") { return .loophunter }
        if toolkitPrefixes.contains(where: { name.hasPrefix($0) }) { return .toolkit }
        if name.hasPrefix("ld-linux") || name.hasPrefix("linux-vdso") || name.hasPrefix("libc.so")
            || systemDirectories.contains(where: { module.hasPrefix($0) }) { return .system }
        return .app
    }
}
