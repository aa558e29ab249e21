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
        .executable(name: "loophunter", targets: ["loophunter"]),
        .library(name: "LoopHunterReport", targets: ["LoopHunterReport"]),
        .library(name: "LoopHunterShip", targets: ["LoopHunterShip"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Shipping (LoopHunterShip): the HTTP client, the NIO types of its API, TLS settings, gzip.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // OTLP/HTTP protobuf bodies: the runtime of the code generated once from the official .proto
        // files (Sources/LoopHunterShip/Encoding/OTLP/Generated, scripts/regenerate-otlp-proto.sh).
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // Table, configuration, JSON writer, report composer, module resolution: the C parts
        // without interposers, so tests can call them without interposing their own runtime.
        .target(
            name: "LoopHunterCore",
            path: "CShim/core"
        ),
        // The report and summary files: Codable model, schema version check. The schema version
        // and the report kinds come from the C core (lh_shared.h), which the preload writes with.
        .target(
            name: "LoopHunterReport",
            dependencies: ["LoopHunterCore"],
            path: "Sources/LoopHunterReport"
        ),
        // Shipping reports to a collector: the spool, OTLP encodings (protobuf, JSON), HTTP transport, retries.
        .target(
            name: "LoopHunterShip",
            dependencies: [
                "LoopHunterReport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            path: "Sources/LoopHunterShip",
            exclude: ["Encoding/OTLP/Generated/README.md"]
        ),
        // The `loophunter` command: run, report, watch, doctor, ship.
        .executableTarget(
            name: "loophunter",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "LoopHunterCore",
                "LoopHunterReport",
                "LoopHunterShip",
                "LoopHunterCLISupport",
            ],
            path: "Sources/loophunter"
        ),
        // C helpers of the command (async-signal-safe signal relay for `run`).
        .target(
            name: "LoopHunterCLISupport",
            path: "Sources/LoopHunterCLISupport"
        ),
        // What the test targets share: paths of the built programs, running them, report directories,
        // fixtures, goldens, the format validators and the OTLP collector used by the shipping tests.
        .target(
            name: "LoopHunterTestSupport",
            dependencies: ["LoopHunterCore", "LoopHunterReport", "LoopHunterShip"],
            path: "Tests/LoopHunterTestSupport"
        ),
        // The C core's tables and parsers (the preload's config, table, report composer) called from Swift.
        .testTarget(
            name: "LoopHunterCoreTests",
            dependencies: ["LoopHunterTestSupport", "LoopHunterCore", "LoopHunterReport", "loophunter"],
            path: "Tests/LoopHunterCoreTests"
        ),
        // Reading, analysing and formatting reports (fixtures and goldens; Tests/Fixtures, Tests/Goldens).
        .testTarget(
            name: "LoopHunterReportTests",
            dependencies: ["LoopHunterTestSupport", "LoopHunterReport", "loophunter"],
            path: "Tests/LoopHunterReportTests"
        ),
        // `loophunter ship` and the shipping library against real collectors (Tests/Receivers).
        .testTarget(
            name: "LoopHunterShipTests",
            dependencies: ["LoopHunterTestSupport", "LoopHunterReport", "LoopHunterShip", "loophunter",
                           .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            path: "Tests/LoopHunterShipTests"
        ),
        // Real programs (toykit, GTK 3/4, the reliability programs) under the preload and the CLI.
        // `loophunter` is a dependency of the test targets so that the binary they run is built first.
        .testTarget(
            name: "LoopHunterEndToEndTests",
            dependencies: ["LoopHunterTestSupport", "LoopHunterCore", "LoopHunterReport", "loophunter"],
            path: "Tests/LoopHunterEndToEndTests"
        ),
    ]
)
