import PoiseConfig
import PoiseFlightSettings
import PoiseFusion
import PoiseMath
import PoiseReplay
import PoiseSettings
import Testing

/// The config file's defaults and the filters' own `Settings.default` must agree, so a run
/// without a config and a run with the shipped example behave identically.
@Suite struct FilterSettingsTests {
    let fromConfig = FilterSettings(configuration: PoiseConfiguration.default)
    let builtIn = FilterSettings()

    @Test func defaultFilterIsPoise() {
        #expect(fromConfig.kind == .poise)
        #expect(builtIn.kind == .poise)
    }

    /// Compares every stored property of two settings values (bit for bit: the config's defaults
    /// are read from the filters' own); reports fields the config does not set.
    func expectSameSettings<S>(_ a: S, _ b: S, _ name: String) {
        let left = Mirror(reflecting: a).children, right = Mirror(reflecting: b).children
        for (l, r) in zip(left, right) {
            let field = "\(name).\(l.label ?? "?")"
            switch (l.value, r.value) {
            case let (x as Float, y as Float):
                #expect(x == y, "\(field): config \(x), filter \(y)")
            case let (x as Bool, y as Bool):
                #expect(x == y, "\(field)")
            default:
                continue  // nested settings such as the input screen are not in the config
            }
        }
    }

    @Test func configDefaultsMatchFilterDefaults() {
        expectSameSettings(fromConfig.complementary, builtIn.complementary, "complementary")
        expectSameSettings(fromConfig.mahony, builtIn.mahony, "mahony")
        expectSameSettings(fromConfig.madgwick, builtIn.madgwick, "madgwick")
        expectSameSettings(fromConfig.mekf, builtIn.mekf, "mekf")
        expectSameSettings(fromConfig.poise, builtIn.poise, "poise")
    }

    @Test func configValuesReachTheFilter() throws {
        let configuration = try PoiseConfiguration.parse(
            text: "filter:\n  name: madgwick\n  madgwick:\n    beta: 0.12\n  poise:\n    rest_time: 2.5\n", file: "t.yaml")
        let choice = FilterSettings(configuration: configuration)
        #expect(choice.kind == .madgwick)
        #expect(choice.madgwick.beta == 0.12)
        #expect(choice.poise.restTime == 2.5)
    }

    /// Every kind runs through the generic path (no existential) and produces an attitude.
    @Test func everyKindRuns() throws {
        struct Work: FilterKindWork {
            mutating func run<Filter: AttitudeFilter>(_ filter: inout Filter) throws -> Quaternion {
                let sample = InertialSample(accelerometer: SIMD3(0, 0, 9.81), gyroscope: .zero, magnetometer: SIMD3(0, 20, -40))
                for _ in 0..<100 { filter.update(sample, dt: 0.01) }
                return filter.attitude
            }
        }
        for kind in FilterKind.allCases {
            var work = Work()
            let q = try FilterSettings(kind: kind).run(&work)
            #expect(q.angle(to: .identity) < 0.01, "\(kind): \(q)")
        }
    }
}

@Suite struct OutputFrameTests {
    @Test func namesParse() {
        #expect(OutputFrame(name: "enu") == .axes(.enu))
        #expect(OutputFrame(name: "NED") == .axes(.ned))
        #expect(OutputFrame(name: "xmagneticnorthzvertical") == .reference(.xMagneticNorthZVertical))
        #expect(OutputFrame(name: "up") == nil)
        #expect(OutputFrame.names.count == 7)
    }

    @Test func nwuTurnsEastIntoSouthWestHeading() {
        // A body lying flat with its x axis east (identity in ENU) has x pointing "−y" (east =
        // −west) in NWU: the attitude is the ENU→NWU rotation, a −90° turn about up.
        var transform = OutputFrameTransform(.axes(.nwu))
        let q = transform.attitude(fromENU: .identity)
        #expect(abs(EulerAngles(q).yaw + .pi / 2) < 1e-6)
    }

    @Test func columnListsParseWithClearErrors() throws {
        #expect(try ReplayColumn.parseList("gravity, heading") == [.gravity, .heading])
        #expect(try ReplayColumn.parseList("all") == ReplayColumn.allCases)
        #expect(throws: ReplayError.self) { try ReplayColumn.parseList("gravity,speed") }
    }
}
