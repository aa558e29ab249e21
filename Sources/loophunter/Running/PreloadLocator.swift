import Foundation

/// Finds libloophunter.so: --preload, then $LOOPHUNTER_PRELOAD, then next to the `loophunter`
/// executable (a build tree: .build/release), then ../lib next to it (an installed prefix).
enum PreloadLocator {
    static let fileName = "libloophunter.so"

    static func locate(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<String, PreloadMissing> {
        if let explicit { return usable(explicit, origin: "--preload") }
        if let fromEnvironment = environment["LOOPHUNTER_PRELOAD"], !fromEnvironment.isEmpty {
            return usable(fromEnvironment, origin: "LOOPHUNTER_PRELOAD")
        }
        let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let directory = URL(fileURLWithPath: selfPath).deletingLastPathComponent()
        var candidates = [directory.appendingPathComponent(fileName).path,
                          directory.deletingLastPathComponent().appendingPathComponent("lib/\(fileName)").path]
        if directory.lastPathComponent == "debug" {
            // A debug build of loophunter in a build tree: the native parts are built into release.
            candidates.append(directory.deletingLastPathComponent().appendingPathComponent("release/\(fileName)").path)
        }
        if let found = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) { return .success(found) }
        return .failure(PreloadMissing(message: "cannot find \(fileName) (looked in \(candidates.joined(separator: " and "))); "
            + "build it with scripts/build-native.sh, or give its path with --preload or LOOPHUNTER_PRELOAD"))
    }

    private static func usable(_ path: String, origin: String) -> Result<String, PreloadMissing> {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.isReadableFile(atPath: absolute) else {
            return .failure(PreloadMissing(message: "\(origin) \(path): no such readable file; give the path of libloophunter.so"))
        }
        return .success(absolute)
    }
}
