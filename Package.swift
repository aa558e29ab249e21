// swift-tools-version:6.0
//
// LoopHunter: the Swift package (report model, reporter, CLI, tests) and the pure C core of the
// preload. The preload library itself (CShim/core + CShim/preload -> libloophunter.so) and the
// toykit host (Sources/Toykit, Sources/ToykitDemo) are built by scripts/build-native.sh with the
// system C compiler: see README.md, "Why the native parts are not built by SwiftPM".
import PackageDescription

let package = Package(
    name: "LoopHunter",
    products: [
        .library(name: "LoopHunterReport", targets: ["LoopHunterReport"]),
    ],
    targets: [
        // Table, configuration, JSON writer, report composer, module resolution: the C parts
        // without interposers, so tests can call them without interposing their own runtime.
        .target(
            name: "LoopHunterCore",
            path: "CShim/core"
        ),
        // The report and summary files: Codable model, schema version check.
        .target(
            name: "LoopHunterReport",
            path: "Sources/LoopHunterReport"
        ),
        .testTarget(
            name: "LoopHunterTests",
            dependencies: ["LoopHunterCore", "LoopHunterReport"],
            path: "Tests/LoopHunterTests"
        ),
    ]
)
