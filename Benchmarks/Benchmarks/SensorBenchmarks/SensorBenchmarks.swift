import Benchmark
import PoiseSensors

/// Raw bursts with varied values (so nothing folds to a constant), prepared before timing.
let bursts: [MPU9250Burst] = (0..<1024).map { i in
    var burst = MPU9250Burst(repeating: 0)
    for k in 0..<14 { burst[k] = UInt8(truncatingIfNeeded: i &* 31 &+ k &* 17) }
    return burst
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 3,
                                           maxDuration: .seconds(2), maxIterations: 1000)

    // Decode of one 14-byte accel+temperature+gyro burst: big-endian to Float, unit
    // conversion, temperature and the chip-to-body mounting rotation.
    Benchmark("MPU-9250 burst decode + conversion + mounting", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var settings = MPU9250Settings.default
        settings.mounting = try! Mounting("+y-x+z")
        let scale = InertialScale(settings: settings)
        var sum = SIMD3<Float>.zero
        var index = 0
        for _ in benchmark.scaledIterations {
            let reading = decodeInertialBurst(bursts[index & 1023], scale: scale)
            sum += reading.accelerometer + reading.gyroscope
            index &+= 1
        }
        blackHole(sum)
    }
}
