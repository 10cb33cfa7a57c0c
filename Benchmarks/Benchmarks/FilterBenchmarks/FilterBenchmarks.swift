import Benchmark
import PoiseMath

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 10)

    Benchmark("Quaternion product and normalise", configuration: .init(scalingFactor: .mega)) { benchmark in
        var q = Quaternion(axis: SIMD3(0, 0, 1), angle: 0.001)
        let step = Quaternion(rotationVector: SIMD3(0.001, 0.002, 0.003))
        for _ in benchmark.scaledIterations { q = (q * step).normalized }
        blackHole(q)
    }
}
