// swift-tools-version: 6.1
// Poise's benchmarks live in their own package (as swift-nio does) so that users and
// `scripts/test` never build package-benchmark. Run them with `scripts/bench`.
import PackageDescription

/// SwiftPM names a path dependency after its directory, which is whatever the clone is called.
let poise = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "Poise")

let benchmarkDependencies: [Target.Dependency] = [
    .product(name: "Benchmark", package: "benchmark"),
    .product(name: "PoiseMath", package: poise),
    .product(name: "PoiseFusion", package: poise),
    .product(name: "PoiseTraces", package: poise),
    .product(name: "PoiseDeviceSettings", package: poise),
    .product(name: "PoiseSensors", package: poise),
    .product(name: "PoiseHAL", package: poise),
    .product(name: "PoiseLinux", package: poise),
    .product(name: "PoiseFlightCore", package: poise),
    .product(name: "PoiseFlightSettings", package: poise),
    .product(name: "PoiseReplay", package: poise),
    .product(name: "PoiseMotion", package: poise),
    .product(name: "PoiseSettings", package: poise),
    .product(name: "PoiseSimulation", package: poise),
    .product(name: "PoiseControl", package: poise),
    .product(name: "PoiseOutputs", package: poise),
    .product(name: "PoiseLoop", package: poise),
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
        .executableTarget(
            name: "SensorBenchmarks",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/SensorBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "OutputBenchmarks",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/OutputBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "ControlBenchmarks",
            dependencies: benchmarkDependencies,
            path: "Benchmarks/ControlBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // Not a package-benchmark suite: a plain program that scripts/bench-read runs under
        // callgrind to count instructions per update + read.
        .executableTarget(
            name: "ReadCost",
            dependencies: [
                .product(name: "PoiseMath", package: poise),
                .product(name: "PoiseFusion", package: poise),
                .product(name: "PoiseTraces", package: poise),
            ],
            path: "Benchmarks/ReadCost"),
    ]
)
