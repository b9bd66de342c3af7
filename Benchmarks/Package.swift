// swift-tools-version:6.1
import PackageDescription

// The benchmarks live in their own package so that package-benchmark (and what it pulls in)
// never enters the dependency graph of an app that uses Mnemo. Run them from this folder:
//
//     swift package benchmark                      # everything (builds in release; slow)
//     swift package benchmark --filter '.*10k'     # the 10k-fact suite (filters match whole names)
//
// The MallocInterposer trait replaces the default traits, whose runtime interposer is not
// available on every machine; it is what the malloc metrics need.
let package = Package(
    name: "MnemoBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named: a path dependency is otherwise known by its folder name, which differs by checkout.
        .package(name: "Mnemo", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "MnemoBenchmarks",
            dependencies: [
                .product(name: "Mnemo", package: "Mnemo"),
                .product(name: "MnemoEncoder", package: "Mnemo"),
                .product(name: "_MnemoEvaluation", package: "Mnemo"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "MnemoBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        )
    ]
)
