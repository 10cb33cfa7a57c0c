import Testing
import PoiseFusion
import PoiseMath

@Suite struct DeviceOrientationTests {
    @Test(arguments: [
        (SIMD3<Float>(0, -1, 0), DeviceOrientation.portrait),
        (SIMD3<Float>(0, 1, 0), .portraitUpsideDown),
        (SIMD3<Float>(-1, 0, 0), .landscapeLeft),
        (SIMD3<Float>(1, 0, 0), .landscapeRight),
        (SIMD3<Float>(0, 0, -1), .faceUp),
        (SIMD3<Float>(0, 0, 1), .faceDown),
    ])
    func eachAxis(gravity: SIMD3<Float>, expected: DeviceOrientation) {
        var detector = DeviceOrientationDetector()
        #expect(detector.update(gravity: gravity * 9.8) == expected)
        #expect(detector.update(gravity: gravity * 9.8) == nil, "no repeated event")
        #expect(detector.orientation == expected)
    }

    @Test func fallenRobotIsFaceDown() {
        var detector = DeviceOrientationDetector()
        _ = detector.update(gravity: SIMD3(0, 0, -9.8))
        #expect(detector.update(gravity: SIMD3(0.5, 0.3, 9.7)) == .faceDown)
    }

    @Test func noFlickerNearABoundary() {
        // Tilt about y swinging noisily around 40°: between enter (30°) and leave (45°)
        // of faceUp, and far from landscape's 30° entry.
        var detector = DeviceOrientationDetector()
        _ = detector.update(gravity: SIMD3(0, 0, -9.8))
        var random = FixtureRandom(state: 11)
        var events = 0
        for _ in 0..<5000 {
            let angle = (40 + 4 * (random.unit() * 2 - 1)) * Float.pi / 180
            let g = SIMD3<Float>(-_sin(angle), 0, -_cos(angle)) * 9.8
            if detector.update(gravity: g) != nil { events += 1 }
        }
        #expect(events == 0)
        #expect(detector.orientation == .faceUp)
    }

    @Test func noisyCrossingChangesOnce() {
        var detector = DeviceOrientationDetector()
        var random = FixtureRandom(state: 5)
        var events: [DeviceOrientation] = []
        for step in 0..<900 {
            // Sweep from face up (0°) to landscape left (90°) with ±5° noise.
            let degrees = Float(step) / 10 + 5 * (random.unit() * 2 - 1)
            let angle = degrees * Float.pi / 180
            if let e = detector.update(gravity: SIMD3(-_sin(angle), 0, -_cos(angle))) { events.append(e) }
        }
        #expect(events == [.faceUp, .unknown, .landscapeLeft] || events == [.faceUp, .landscapeLeft])
    }

    @Test func ignoresInvalidGravity() {
        var detector = DeviceOrientationDetector()
        #expect(detector.update(gravity: .zero) == nil)
        #expect(detector.update(gravity: SIMD3(.nan, 0, 1)) == nil)
        #expect(detector.orientation == .unknown)
    }
}
