import Testing
import PoiseConfig
import PoiseDeviceSettings

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
    #expect(AxisMapping.parse("+x+y-z") == .failure(MountingError(text: "+x+y-z", reason: .reflection)))
    #expect(AxisMapping.parse("+y+x+z") == .failure(MountingError(text: "+y+x+z", reason: .reflection)))
    #expect(AxisMapping.parse("+x+x+z") == .failure(MountingError(text: "+x+x+z", reason: .repeatedAxis("x"))))
    #expect(AxisMapping.parse("x+y+z") == .failure(MountingError(text: "x+y+z", reason: .syntax)))
    #expect(AxisMapping.parse("+x+y+w") == .failure(MountingError(text: "+x+y+w", reason: .syntax)))
}

@Test func theConfigurationsMappingIsTheDriversMounting() throws {
    // One type, one parser: what `board.mounting` holds is what the driver turns samples with.
    let mapping: AxisMapping = try AxisMapping.parse("+y-x+z").get()
    #expect(mapping == (try Mounting("+y-x+z")))
    #expect(Set(AxisMapping.allNames) == Set(Mounting.all.map(\.description)))
    #expect("\(MountingError(text: "+x+x+z", reason: .repeatedAxis("x")))" == "`+x+x+z`: each of x, y and z must appear exactly once")
}

@Test func mappingReadsTheNamedChipAxis() throws {
    let quarterTurn = try AxisMapping.parse("+y-x+z").get()
    // Body x reads chip +y, body y reads chip −x.
    #expect(quarterTurn.chipToBody(SIMD3<Float>(1, 2, 3)) == SIMD3<Float>(2, -1, 3))
    #expect(AxisMapping.identity.chipToBody(SIMD3<Float>(1, 2, 3)) == SIMD3<Float>(1, 2, 3))
}

@Test func rotationsPreserveHandedness() throws {
    // A proper rotation maps x × y to z.
    for name in AxisMapping.allNames {
        let m = try AxisMapping.parse(name).get()
        let x = m.chipToBody(SIMD3<Float>(1, 0, 0)), y = m.chipToBody(SIMD3<Float>(0, 1, 0)), z = m.chipToBody(SIMD3<Float>(0, 0, 1))
        let cross = SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
        #expect(cross == z, "\(name)")
    }
}
