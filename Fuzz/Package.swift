// swift-tools-version: 6.1
// libFuzzer targets for Poise's input paths, in their own package so that `swift build`
// of the main package never sees them. Build and run them with `scripts/fuzz TARGET
// [SECONDS]`, which compiles with `-sanitize=fuzzer,address` into `.build-fuzz`.
import PackageDescription

/// SwiftPM names a path dependency after its directory, which is whatever the clone is called.
let poise = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "Poise")

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: poise) },
        path: "Sources/\(name)",
        // libFuzzer supplies `main`; the target only defines LLVMFuzzerTestOneInput.
        swiftSettings: [.unsafeFlags(["-parse-as-library"])])
}

let package = Package(
    name: "PoiseFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzSupport", path: "Sources/FuzzSupport"),
        fuzzTarget("FuzzCSVReader", ["PoiseTraces"]),
        fuzzTarget("FuzzBinaryReader", ["PoiseTraces"]),
        fuzzTarget("FuzzConfig", ["PoiseConfig"]),
        fuzzTarget("FuzzMotionScript", ["PoiseMotion"]),
        fuzzTarget("FuzzPlotInput", ["PoiseTraces", "PoisePlot"]),
    ]
)
