import PoiseMath
import PropertyBased
import Testing

@Suite struct WorldAxesTests {
    static let pairs: [(WorldAxes, WorldAxes)] = WorldAxes.allCases.flatMap { a in
        WorldAxes.allCases.map { b in (a, b) }
    }

    @Test func namedDirections() {
        let enuNorth = SIMD3<Float>(0, 1, 0)
        #expect(WorldAxes.enu.convert(enuNorth, to: .ned) == SIMD3(1, 0, 0))
        #expect(WorldAxes.enu.convert(enuNorth, to: .nwu) == SIMD3(1, 0, 0))
        #expect(WorldAxes.enu.convert(SIMD3(1, 0, 0), to: .nwu) == SIMD3(0, -1, 0))
        #expect(WorldAxes.enu.convert(SIMD3(0, 0, 1), to: .ned) == SIMD3(0, 0, -1))
        for world in WorldAxes.allCases {
            #expect(WorldAxes.enu.convert(SIMD3(0, 1, 0), to: world) == world.north)
            #expect(WorldAxes.enu.convert(SIMD3(1, 0, 0), to: world) == world.east)
            #expect(WorldAxes.enu.convert(SIMD3(0, 0, 1), to: world) == world.up)
            #expect(cross(world.east, world.north) == world.up || world == .ned)
        }
    }

    @Test(arguments: pairs)
    func quaternionMatchesVectorConversion(from: WorldAxes, to: WorldAxes) {
        let c = WorldAxes.rotation(from: from, to: to)
        #expect(abs(c.lengthSquared - 1) < 1e-7)
        for v in [SIMD3<Float>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(0.3, -2, 5)] {
            #expect(maxDifference(c.rotate(v), from.convert(v, to: to)) < 1e-6)
        }
        // Only exact constants: 0, ±1, ±√½.
        for i in 0..<4 {
            let a = abs(c.components[i])
            #expect(a == 0 || a == 1 || a == sqrtHalf)
        }
    }

    @Test(arguments: pairs)
    func roundTripIsIdentity(from: WorldAxes, to: WorldAxes) async {
        let there = WorldAxes.rotation(from: from, to: to)
        let back = WorldAxes.rotation(from: to, to: from)
        #expect(sameRotation(back * there, .identity, within: 3e-7))
        let v = SIMD3<Float>(0.25, -7, 3.5)
        #expect(to.convert(from.convert(v, to: to), to: from) == v)
        await propertyCheck(count: 50, input: unitQuaternions()) { q in
            let converted = from.convert(attitude: q, to: to)
            let returned = to.convert(attitude: converted, to: from)
            #expect(maxDifference4(returned.components, q.components) < 3e-7
                    || maxDifference4(returned.components, -q.components) < 3e-7)
        }
    }

    /// Only the world frame changes: a body vector lands on the same physical direction.
    @Test func attitudeConversionKeepsBodyFrame() async {
        await propertyCheck(count: 200, input: unitQuaternions(), vectors()) { q, body in
            for world in WorldAxes.allCases {
                let converted = WorldAxes.enu.convert(attitude: q, to: world)
                #expect(maxDifference(converted.rotate(body), WorldAxes.enu.convert(q.rotate(body), to: world)) < 1e-4)
            }
        }
    }

    @Test func composition() {
        for a in WorldAxes.allCases {
            for b in WorldAxes.allCases {
                for c in WorldAxes.allCases {
                    let direct = WorldAxes.rotation(from: a, to: c)
                    let viaB = WorldAxes.rotation(from: b, to: c) * WorldAxes.rotation(from: a, to: b)
                    #expect(sameRotation(direct, viaB, within: 3e-7))
                }
            }
        }
    }
}
