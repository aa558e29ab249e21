import Foundation

/// Finds the external programs the reporter uses: llvm-symbolizer (from the Swift toolchain or
/// Debian's llvm), swift-demangle (Swift toolchain) and c++filt (binutils). Never addr2line: it
/// prints the nearest exported symbol for functions of stripped libraries, a wrong name.
public enum ToolLocator {
    /// llvm-symbolizer: `$LOOPHUNTER_SYMBOLIZER`, then PATH, then the toolchain next to `swift`,
    /// then Debian's versioned copies.
    public static func symbolizer(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let explicit = environment["LOOPHUNTER_SYMBOLIZER"], !explicit.isEmpty {
            return FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        let versioned = (10...30).reversed().flatMap {
            ["/usr/bin/llvm-symbolizer-\($0)", "/usr/lib/llvm-\($0)/bin/llvm-symbolizer"]
        }
        return find("llvm-symbolizer", environment: environment, extra: versioned)
    }

    public static func swiftDemangle(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        find("swift-demangle", environment: environment, extra: [])
    }

    public static func cxxDemangle(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        find("llvm-cxxfilt", environment: environment, extra: [])
            ?? find("c++filt", environment: environment, extra: [])
    }

    /// `name` on PATH, next to the `swift` driver, or one of `extra`.
    static func find(_ name: String, environment: [String: String], extra: [String]) -> String? {
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        var candidates = path.map { "\($0)/\(name)" }
        for dir in path where FileManager.default.isExecutableFile(atPath: "\(dir)/swift") {
            let driver = URL(fileURLWithPath: "\(dir)/swift").resolvingSymlinksInPath()
            candidates.append(driver.deletingLastPathComponent().appendingPathComponent(name).path)
        }
        candidates += ["/opt/swift/usr/bin/\(name)"] + extra
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
