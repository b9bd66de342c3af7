// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Mnemo",
    platforms: [
        .macOS(.v13),
        .iOS(.v16),
        .tvOS(.v16),
        .watchOS(.v9),
        .visionOS(.v1),
    ],
    products: [
        .library(name: "Mnemo", targets: ["Mnemo"]),
        .executable(name: "mnemo", targets: ["MnemoCLI"]),
        // BEIR evaluation and benchmark support. A product only so that the nested benchmark
        // package (Benchmarks/Package.swift) can import it; apps never need it.
        .library(name: "MnemoEvaluation", targets: ["MnemoEvaluation"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Used by the command line only; an app embedding the library never builds it.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Used by the HTTP and MCP servers only (`mnemo serve`, `mnemo mcp`).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        .target(
            name: "Mnemo",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Retrieval evaluation (BEIR), synthetic corpora and latency statistics for `mnemo eval`,
        // `mnemo bench`, the tests and the benchmark package.
        .target(
            name: "MnemoEvaluation",
            dependencies: ["Mnemo"]
        ),
        // The HTTP server of `mnemo serve`: the Lucid and MindChat memory APIs over Hummingbird.
        .target(
            name: "MnemoServer",
            dependencies: [
                "Mnemo",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("openapi.json")]
        ),
        // The Model Context Protocol server of `mnemo mcp`.
        .target(
            name: "MnemoMCP",
            dependencies: [
                "Mnemo",
                .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
        .executableTarget(
            name: "MnemoCLI",
            dependencies: [
                "Mnemo",
                "MnemoEvaluation",
                "MnemoServer",
                "MnemoMCP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "MnemoTests",
            dependencies: ["Mnemo", "MnemoEvaluation"]
        ),
        .testTarget(
            name: "MnemoServerTests",
            dependencies: [
                "Mnemo",
                "MnemoServer",
                "MnemoMCP",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
    ]
)
