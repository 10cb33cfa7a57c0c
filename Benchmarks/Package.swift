// swift-tools-version: 6.1
// Poise's benchmarks live in their own package (as swift-nio does) so that users and
// `scripts/test` never build package-benchmark. Run them with `scripts/bench`.
import PackageDescription

let benchmarkDependencies: [Target.Dependency] = [
    .product(name: "Benchmark", package: "benchmark"),
    .product(name: "PoiseMath", package: "Poise"),
    .product(name: "PoiseFusion", package: "Poise"),
    .product(name: "PoiseTraces", package: "Poise"),
    .product(name: "PoiseSensors", package: "Poise"),
    .product(name: "PoiseIO", package: "Poise"),
    .product(name: "PoiseMotion", package: "Poise"),
    .product(name: "PoiseRuntime", package: "Poise"),
]

let package = Package(
    name: "PoiseBenchmarks",
    dependencies: [
        .package(path: ".."),
        // Malloc counts come from the interposer; only wall-clock and malloc metrics are used
        // (the ARC metrics crash on Linux).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "FilterBenchmarks",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/FilterBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "TraceBenchmarks",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/TraceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
