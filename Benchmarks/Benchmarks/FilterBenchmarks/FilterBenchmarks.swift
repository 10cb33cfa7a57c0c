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

    // The gyroscope filters of the tick, per sample on three axes: the low-pass alone, then the
    // heaviest configuration (low-pass + 4 throttle notches × 4 harmonics, redesigned every sample).
    benchmarkGyroFilters("Gyro filters: 2nd-order low-pass", lowPass: true, notches: 0, harmonics: 1, mode: .static)
    benchmarkGyroFilters("Gyro filters: low-pass + 1 static notch", lowPass: true, notches: 1, harmonics: 1, mode: .static)
    benchmarkGyroFilters("Gyro filters: low-pass + 1 throttle notch, 3 harmonics", lowPass: true, notches: 1, harmonics: 3, mode: .throttle)
    benchmarkGyroFilters("Gyro filters: low-pass + 4 throttle notches × 4 harmonics", lowPass: true, notches: 4, harmonics: 4, mode: .throttle)

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

/// Benchmarks `GyroFilterBank.apply` on the simulator's gyroscope samples with a throttle that
/// moves every sample (so throttle notches are redesigned each time): time and mallocs (must be 0).
func benchmarkGyroFilters(_ name: String, lowPass: Bool, notches: Int, harmonics: Int, mode: GyroNotchSettings.Mode) {
    Benchmark(name, configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo)) { benchmark in
        var settings = GyroFilterSettings()
        if lowPass { settings.lowPassCutoff = 90 }
        for i in 0..<notches {
            settings.notches[i].mode = mode
            settings.notches[i].centerFrequency = 70 + 25 * Float(i)
            settings.notches[i].bandwidth = 35
            settings.notches[i].harmonics = harmonics
        }
        var bank = GyroFilterBank(settings: settings, sampleRate: 1000)
        let mask = samples.count - 1
        var index = 0
        var sum = SIMD3<Float>.zero
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let throttle = 0.3 + 0.2 * Float(index & 255) / 255
            sum += bank.apply(samples[index & mask].gyroscope, throttle: throttle)
            index &+= 1
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }
}
