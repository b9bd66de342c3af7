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
        .executableTarget(
            name: "MnemoCLI",
            dependencies: [
                "Mnemo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "MnemoTests",
            dependencies: ["Mnemo"]
        ),
    ]
)
