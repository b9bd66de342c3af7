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
        .executableTarget(
            name: "MnemoCLI",
            dependencies: [
                "Mnemo",
                "MnemoEvaluation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "MnemoTests",
            dependencies: ["Mnemo", "MnemoEvaluation", "MnemoCLI"]
        ),
    ]
)
