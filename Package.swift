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
        // The knowledge base: GRDB only. An app that brings its own embedder needs nothing else.
        .library(name: "Mnemo", targets: ["Mnemo"]),
        // The pure-Swift BERT sentence encoder (all-MiniLM-L6-v2), an `Embedder` for `Mnemo`.
        .library(name: "MnemoEncoder", targets: ["MnemoEncoder"]),
        // Many servers over one PostgreSQL: the store and each node's copies of its namespaces.
        // Only a server needs it; an app that embeds `Mnemo` never compiles postgres-nio or NIO.
        .library(name: "MnemoPostgres", targets: ["MnemoPostgres"]),
        .executable(name: "mnemo", targets: ["MnemoCLI"]),
        // BEIR evaluation and benchmark support. Not API (hence the underscore, as
        // swift-collections' `_RopeModule`): a product only so that the nested benchmark package
        // (Benchmarks/Package.swift) can import it; apps never need it and it may change at will.
        .library(name: "_MnemoEvaluation", targets: ["MnemoEvaluation"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Used by the command line only; an app embedding the library never builds it.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Used by the HTTP and MCP servers only (`mnemo serve`, `mnemo mcp`).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        // The PostgreSQL backend only (`MnemoPostgres`).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .target(
            name: "Mnemo",
            dependencies: [
                "MnemoKernels", "MnemoSQLiteSettings", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // SQLite's process-wide settings, in C because Swift cannot call the variadic
        // `sqlite3_config`. Links the SQLite that GRDB links.
        .target(name: "MnemoSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        // A few C loops (the encoder's matrix product, the scan's dot products) compiled for AVX2
        // through function attributes and chosen at run time; no flags, no dependencies, nothing
        // public. See Sources/MnemoKernels/include/MnemoKernels.h.
        .target(name: "MnemoKernels"),
        // The BERT runtime: safetensors, WordPiece, the forward pass and its kernels. It depends
        // on `Mnemo` for the `Embedder` protocol it conforms to (and the shared vector math and
        // text normalizer), not the other way round: an app that embeds with its own model
        // imports `Mnemo` alone and never compiles this target. A third, protocol-only module
        // would save an encoder-only user from compiling GRDB, but no such user exists, and it
        // would split the public API across three imports.
        .target(
            name: "MnemoEncoder",
            dependencies: ["Mnemo", "MnemoKernels"]
        ),
        // The PostgreSQL backend: PostgreSQL holds every namespace; each node keeps a SQLite copy
        // of the namespaces it serves, caught up through a change log (see Sources/MnemoPostgres).
        .target(
            name: "MnemoPostgres",
            dependencies: [
                "Mnemo",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
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
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
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
                "MnemoEncoder",
                "MnemoEvaluation",
                "MnemoServer",
                "MnemoMCP",
                "MnemoPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The code of the README and the DocC articles, compiled and run by the tests, which
        // also check that the documents quote it exactly. Not a product.
        .target(
            name: "MnemoExamples",
            dependencies: ["Mnemo", "MnemoEncoder", "MnemoPostgres"],
            path: "Examples"
        ),
        // The libFuzzer targets for the parsers of untrusted bytes, built with sanitizers by
        // Scripts/fuzz/fuzz.sh; a plain build replays saved inputs. Not a product.
        .executableTarget(
            name: "MnemoFuzz",
            dependencies: ["Mnemo", "MnemoEncoder", "CLibFuzzer"],
            path: "Scripts/fuzz/MnemoFuzz"
        ),
        // The declaration of libFuzzer's driver entry point, for MnemoFuzz; no code.
        .target(name: "CLibFuzzer", path: "Scripts/fuzz/CLibFuzzer"),
        // What several test targets share: test knowledge bases and embedders, the fixtures' and
        // the model's locations, a runner for the built `mnemo`, a pseudo-terminal.
        .target(
            name: "MnemoTestSupport",
            dependencies: ["Mnemo", "MnemoPostgres", .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Tests/MnemoTestSupport"
        ),
        .testTarget(
            name: "MnemoTests",
            // The encoder for the tests that need the real model's vectors (retrieval and
            // near-duplicate quality on the fixtures); the examples that the documents quote.
            dependencies: [
                "Mnemo", "MnemoEncoder", "MnemoEvaluation", "MnemoExamples", "MnemoPostgres", "MnemoTestSupport",
            ],
            // The pinned schema of a fresh file, read by `SchemaSnapshotTests` from the source tree.
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "MnemoEncoderTests",
            // The CLI target for its model installer, which only the command line ships.
            dependencies: ["Mnemo", "MnemoEncoder", "MnemoEvaluation", "MnemoCLI", "MnemoTestSupport"]
        ),
        .testTarget(
            name: "MnemoEvaluationTests",
            dependencies: ["Mnemo", "MnemoEvaluation", "MnemoTestSupport"]
        ),
        .testTarget(
            name: "MnemoCLITests",
            dependencies: [
                "Mnemo", "MnemoEncoder", "MnemoCLI", "MnemoTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Every command's help text, pinned and read by `HelpSnapshotTests` from the source tree.
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "MnemoServerTests",
            // MnemoMCP too: one suite checks that HTTP and MCP give the same answers.
            dependencies: [
                "Mnemo",
                "MnemoServer",
                "MnemoMCP",
                "MnemoTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MnemoPostgresTests",
            dependencies: [
                "Mnemo", "MnemoPostgres", "MnemoTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "MnemoMCPTests",
            dependencies: [
                "Mnemo",
                "MnemoMCP",
                "MnemoTestSupport",
                .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
    ]
)
