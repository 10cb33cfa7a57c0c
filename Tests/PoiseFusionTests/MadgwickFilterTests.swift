import Testing
import PoiseFusion
import PoiseMath

@Suite struct MadgwickFilterTests {
    @Test func startupRampIsFlaggedThenEnds() {
        var filter = MadgwickFilter(settings: .init(beta: 0.1, startupGain: 10, startupTime: 1))
        filter.update(ClassicFixture.sample(ClassicFixture.tilted), dt: 0.01)
        for _ in 0..<50 { filter.update(ClassicFixture.sample(ClassicFixture.tilted), dt: 0.01) }
        #expect(filter.status.flags.contains(.initialising))
        for _ in 0..<100 { filter.update(ClassicFixture.sample(ClassicFixture.tilted), dt: 0.01) }
        #expect(!filter.status.flags.contains(.initialising))
    }

    @Test func rampConvergesFasterThanPlainBeta() {
        let wrong = Quaternion(axis: SIMD3(1, 0, 0), angle: 1.5)
        var ramped = MadgwickFilter()
        var plain = MadgwickFilter(settings: .init(startupTime: 0))
        ramped.reset(attitude: wrong)
        plain.reset(attitude: wrong)
        for _ in 0..<300 {
            ramped.update(ClassicFixture.sample(ClassicFixture.tilted), dt: 0.01)
            plain.update(ClassicFixture.sample(ClassicFixture.tilted), dt: 0.01)
        }
        #expect(ClassicFixture.angle(ramped.attitude, ClassicFixture.tilted) < 1)
        #expect(ClassicFixture.angle(plain.attitude, ClassicFixture.tilted) > 5)
    }

    @Test func headingIsMagneticNorthInENU() {
        // Level, top edge (+y) towards magnetic north: the identity attitude.
        var filter = MadgwickFilter(settings: .init(startupTime: 0))
        filter.reset(attitude: Quaternion(axis: SIMD3(0, 0, 1), angle: 0.5))
        for _ in 0..<3000 { filter.update(ClassicFixture.sample(.identity), dt: 0.01) }
        #expect(ClassicFixture.angle(filter.attitude, .identity) < 1)
    }
}
