import Benchmark
import PoiseFusion
import PoiseMath
import PoiseMotion

/// Samples from the project's own simulator (the `tumble` motion: fast, all axes), prepared
/// before timing so each iteration measures exactly one `update`.
let samples: [InertialSample] = {
    var generator = try! MotionGenerator(script: MotionScript.preset(named: "tumble")!, sampleRate: 285.714)
    var sensor = try! SensorErrorSimulator(model: .default, sampleRate: 285.714)
    var result: [InertialSample] = []
    while result.count < 4096, let truth = generator.next() {
        let m = sensor.measure(truth)
        result.append(InertialSample(accelerometer: m.accelerometer, gyroscope: m.gyroscope, magnetometer: m.magnetometer))
    }
    return result
}()
let samplesWithoutMagnetometer = samples.map { InertialSample(accelerometer: $0.accelerometer, gyroscope: $0.gyroscope) }

/// Benchmarks one filter's `update`, 9D or 6D: wall clock per update and mallocs (must be 0).
func benchmarkUpdate<Filter: AttitudeFilter>(_ name: String, _ make: @escaping @Sendable () -> Filter, sixD: Bool) {
    Benchmark("\(name) update \(sixD ? "6D" : "9D")",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo)) { benchmark in
        let input = sixD ? samplesWithoutMagnetometer : samples
        var filter = make()
        // Converge past start-up first, outside the measurement.
        for sample in input { filter.update(sample, dt: 0.0035) }
        let mask = input.count - 1
        var index = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            filter.update(input[index & mask], dt: 0.0035)
            index &+= 1
        }
        benchmark.stopMeasurement()
        blackHole(filter.attitude)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 3,
                                           maxDuration: .seconds(2), maxIterations: 1000)
    for sixD in [false, true] {
        benchmarkUpdate("Poise", { PoiseFilter(settings: .default) }, sixD: sixD)
        benchmarkUpdate("MEKF", { MultiplicativeKalmanFilter(settings: .default) }, sixD: sixD)
        benchmarkUpdate("Madgwick", { MadgwickFilter(settings: .default) }, sixD: sixD)
        benchmarkUpdate("Mahony", { MahonyFilter(settings: .default) }, sixD: sixD)
        benchmarkUpdate("Complementary", { ComplementaryFilter(settings: .default) }, sixD: sixD)
    }

    Benchmark("Quaternion product, normalise and Euler angles",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo)) { benchmark in
        var q = Quaternion(axis: SIMD3(0, 0, 1), angle: 0.001)
        let step = Quaternion(rotationVector: SIMD3(0.001, 0.002, 0.003))
        var sum: Float = 0
        for _ in benchmark.scaledIterations {
            q = (q * step).normalized
            sum += EulerAngles(q).yaw
        }
        blackHole(sum)
    }
}
