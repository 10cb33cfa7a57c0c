import PoiseDeviceSettings
import PoiseSensors
import PoiseSimulation
import Benchmark

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
    tickBenchmarks()
}

/// One loop tick of the driver against the register-level simulated chip: the simulated
/// time advances, the chip generates its registers, the driver does its one 14-byte burst
/// transaction (and the AK8963 read every tenth tick) and decodes. Measures the driver and
/// the simulation together; on a board the transaction is an `ioctl` instead.
let tickBenchmarks: @Sendable () -> Void = {
    Benchmark("MPU-9250 driver tick on the simulated chip (200 Hz, 9D)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var imu = makeSimulatedIMU(motion: ConstantRotation(axis: SIMD3(0, 0, 1), rate: 0.5))
        var time = 0.0
        // Start-up (reset, configuration, AK8963 fuse ROM) happens before measuring.
        for _ in 0..<400 { time += 0.005; _ = imu.tick(at: time) }
        var sum = SIMD3<Float>.zero
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            time += 0.005
            if let sample = imu.tick(at: time) { sum += sample.accelerometer }
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }
}
