import Benchmark
import PoiseControl
import PoiseFusion
import PoiseMath
import PoiseFlightCore

/// Measurements with varied values, prepared before timing.
let angles: [Float] = (0..<1024).map { Float(($0 &* 37) % 200) / 1000 - 0.1 }
let rates: [Float] = (0..<1024).map { Float(($0 &* 53) % 200) / 100 - 1 }

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 3,
                                           maxDuration: .seconds(2), maxIterations: 1000)

    // One PID step with its derivative filter (target: ≤ 20 ns).
    Benchmark("PID step", configuration: .init(scalingFactor: .mega)) { benchmark in
        var pid = PIDController(settings: PIDSettings(proportionalGain: 6, integralGain: 20, derivativeGain: 0.35,
                                                      derivativeCutoffHz: 40, outputLimit: 1, integralLimit: 0.5))
        var sum: Float = 0
        var i = 0
        for _ in benchmark.scaledIterations {
            sum += pid.update(setpoint: 0, measurement: angles[i & 1023], measuredRate: rates[i & 1023], dt: 0.001)
            i &+= 1
        }
        blackHole(sum)
    }

    // Cascaded angle → rate PIDs on three axes and the X mixer (target: ≤ 100 ns).
    Benchmark("Quad attitude controller + mixer", configuration: .init(scalingFactor: .mega)) { benchmark in
        var quad = QuadAttitudeController(settings: QuadSettings(frame: .x))
        var sum: Float = 0
        var i = 0
        let setpoint = QuadSetpoint(thrust: 0.5)
        for _ in benchmark.scaledIterations {
            let input = ControlInput(attitude: EulerAngles(pitch: angles[i & 1023], roll: angles[(i + 7) & 1023], yaw: 0),
                                     rotationRate: SIMD3(rates[i & 1023], rates[(i + 3) & 1023], rates[(i + 5) & 1023]),
                                     dt: 0.001)
            sum += quad.update(input, setpoint: setpoint, armed: true).sum()
            i &+= 1
        }
        blackHole(sum)
    }

    // The balancing robot's pitch and yaw-rate loops.
    Benchmark("Balance controller", configuration: .init(scalingFactor: .mega)) { benchmark in
        var balance = BalanceController(settings: BalanceSettings())
        var sum: Float = 0
        var i = 0
        for _ in benchmark.scaledIterations {
            let input = ControlInput(attitude: EulerAngles(pitch: angles[i & 1023], roll: 0, yaw: 0),
                                     rotationRate: SIMD3(rates[i & 1023], 0, rates[(i + 5) & 1023]), dt: 0.001)
            let drive = balance.update(input)
            sum += drive.left + drive.right
            i &+= 1
        }
        blackHole(sum)
    }

    // The whole tick function but the I/O: startup bias, the default filter (9D), the quad
    // controller, the arming supervisor and the mapping of four ESC channels.
    Benchmark("FlightCore tick (poise filter, quad X, 4 ESCs)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let esc = (0..<4).map { m in
            ChannelMapping.pulse(OutputSignal.allCases[m], periodMicroseconds: 2500, minMicroseconds: 1000,
                                 maxMicroseconds: 2000, safeMicroseconds: 1000, slewRate: 0)
        }
        var core = FlightCore(filter: PoiseFilter(), controller: .quad(QuadAttitudeController(settings: QuadSettings())),
                              safety: SafetySettings(armHoldTime: 0), mapper: OutputMapper(esc),
                              frame: OutputFrameTransform(.axes(.enu)), startupBias: StartupBias(duration: 0))
        var status = LoopStatus()
        status.quadSetpoint = QuadSetpoint(thrust: 0.5)
        var time = 0.0
        var sum: UInt32 = 0
        var i = 0
        for _ in benchmark.scaledIterations {
            time += 0.001
            let sample = SensorSample(accelerometer: SIMD3(angles[i & 1023], -angles[(i + 9) & 1023], 9.8),
                                      gyroscope: SIMD3(rates[i & 1023], rates[(i + 3) & 1023], rates[(i + 5) & 1023]) * 0.01,
                                      magnetometer: SIMD3(0, 20, -44), magnetometerIsNew: i % 10 == 0,
                                      temperature: 25, saturated: false)
            sum &+= core.checkedTick(SensorReading(sample: sample, time: time, state: .running), loop: status).commands[0]
            i &+= 1
        }
        blackHole(sum)
    }
}
