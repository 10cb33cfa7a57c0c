import Testing
import PoiseConfig

@Test func exactlyTwentyFourRotations() {
    #expect(AxisMapping.allNames.count == 24)
    #expect(Set(AxisMapping.allNames).count == 24)
    for name in AxisMapping.allNames {
        let mapping = try? AxisMapping.parse(name).get()
        #expect(mapping?.determinant == 1)
        #expect(mapping?.description == name)
    }
}

@Test func reflectionsAndMalformedTextAreRejected() {
    #expect(AxisMapping.parse("+x+y-z") == .failure(.reflection))
    #expect(AxisMapping.parse("+y+x+z") == .failure(.reflection))
    #expect(AxisMapping.parse("+x+x+z") == .failure(.repeatedAxis))
    #expect(AxisMapping.parse("x+y+z") == .failure(.malformed))
    #expect(AxisMapping.parse("+x+y+w") == .failure(.malformed))
}

@Test func mappingReadsTheNamedChipAxis() throws {
    let quarterTurn = try AxisMapping.parse("+y-x+z").get()
    // Body x reads chip +y, body y reads chip −x.
    #expect(quarterTurn.map(SIMD3<Float>(1, 2, 3)) == SIMD3<Float>(2, -1, 3))
    #expect(quarterTurn.map(SIMD3<Double>(1, 2, 3)) == SIMD3<Double>(2, -1, 3))
    #expect(AxisMapping.identity.map(SIMD3<Float>(1, 2, 3)) == SIMD3<Float>(1, 2, 3))
}

@Test func rotationsPreserveHandedness() throws {
    // A proper rotation maps x × y to z.
    for name in AxisMapping.allNames {
        let m = try AxisMapping.parse(name).get()
        let x = m.map(SIMD3<Double>(1, 0, 0)), y = m.map(SIMD3<Double>(0, 1, 0)), z = m.map(SIMD3<Double>(0, 0, 1))
        let cross = SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
        #expect(cross == z, "\(name)")
    }
}
