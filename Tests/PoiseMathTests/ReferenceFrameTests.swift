import PoiseMath
import PropertyBased
import Testing

@Suite struct ReferenceFrameTests {
    /// Device flat, top toward magnetic north: in the NWU frame body y points to frame x.
    @Test func magneticNorth() {
        var transform = FrameTransform(frame: .xMagneticNorthZVertical)
        let topNorth = Quaternion.identity  // ENU identity: body y = north
        let q = transform.attitude(fromENU: topNorth)
        #expect(maxDifference(q.rotate(SIMD3(0, 1, 0)), SIMD3(1, 0, 0)) < 1e-6)
        #expect(abs(EulerAngles(q).yaw + Float.pi / 2) < 1e-6)
        #expect(transform.headingDegrees(ofAttitude: q) < 1e-4)
        // Identity in the frame: body x north, top west → 270°.
        #expect(abs(transform.headingDegrees(ofAttitude: .identity) - 270) < 1e-4)
        #expect(transform.vector(fromENU: SIMD3(1, 0, 0)) == WorldAxes.nwu.east || maxDifference(transform.vector(fromENU: SIMD3(1, 0, 0)), WorldAxes.nwu.east) < 1e-6)
    }

    /// Declination 10° east: magnetic north is 10° clockwise of true north.
    @Test func trueNorth() async {
        var trueFrame = FrameTransform(frame: .xTrueNorthZVertical, declinationDegrees: 10)
        var magneticFrame = FrameTransform(frame: .xMagneticNorthZVertical)
        // Top toward true north = 10° anticlockwise of magnetic north (yaw +10° in magnetic ENU).
        let topTrueNorth = Quaternion(axis: SIMD3(0, 0, 1), angle: radians(fromDegrees: 10))
        let inTrue = trueFrame.attitude(fromENU: topTrueNorth)
        let inMagnetic = magneticFrame.attitude(fromENU: topTrueNorth)
        let trueHeading = trueFrame.headingDegrees(ofAttitude: inTrue)
        #expect(min(trueHeading, 360 - trueHeading) < 1e-3)
        #expect(abs(magneticFrame.headingDegrees(ofAttitude: inMagnetic) - 350) < 1e-3)

        await propertyCheck(count: 200, input: unitQuaternions()) { q in
            let t = trueFrame.headingDegrees(ofAttitude: trueFrame.attitude(fromENU: q))
            let m = magneticFrame.headingDegrees(ofAttitude: magneticFrame.attitude(fromENU: q))
            var d = t - (m + 10)
            d -= 360 * (d / 360).rounded()
            #expect(abs(d) < 0.05, "true \(t) magnetic \(m)")
            #expect(abs(trueFrame.attitude(fromENU: q).tilt - q.tilt) < 1e-5)
        }
        #expect(FrameTransform(frame: .xTrueNorthZVertical).frameFromENU == WorldAxes.rotation(from: .enu, to: .nwu))
    }

    @Test(arguments: [ReferenceFrame.xArbitraryZVertical, .xArbitraryCorrectedZVertical])
    func arbitraryCapturesFirstHeading(frame: ReferenceFrame) async {
        await propertyCheck(count: 100, input: unitQuaternions(), unitQuaternions()) { first, later in
            var transform = FrameTransform(frame: frame)
            #expect(!transform.isReferenceCaptured)
            let a = transform.attitude(fromENU: first)
            #expect(transform.isReferenceCaptured)
            // The first attitude has yaw 0 and keeps its tilt.
            #expect(angleDifference(a.heading, 0) < 1e-4)
            #expect(abs(a.tilt - first.tilt) < 1e-5)
            // Later attitudes: heading relative to the first; same rotation about the vertical.
            let b = transform.attitude(fromENU: later)
            #expect(angleDifference(b.heading, later.heading - first.heading) < 1e-3)
            #expect(transform.headingDegrees(ofAttitude: b) == -1)
            // Reset: the next attitude becomes the new reference.
            transform.resetReference()
            #expect(!transform.isReferenceCaptured)
            #expect(angleDifference(transform.attitude(fromENU: later).heading, 0) < 1e-4)
        }
    }

    /// A non-finite attitude (a filter that has not started) must not become the reference.
    @Test func nonFiniteAttitudeIsNotCaptured() {
        var transform = FrameTransform(frame: .xArbitraryZVertical)
        let bad = transform.attitude(fromENU: Quaternion(w: .nan, x: 0, y: 0, z: 0))
        #expect(!bad.isFinite)
        #expect(!transform.isReferenceCaptured)
        let q = Quaternion(axis: SIMD3(0, 0, 1), angle: 1)
        #expect(sameRotation(transform.attitude(fromENU: q), .identity, within: 1e-6))
    }

    @Test func gravityIsTheSameInEveryFrame() async {
        await propertyCheck(count: 100, input: unitQuaternions()) { q in
            for frame in ReferenceFrame.allCases {
                var transform = FrameTransform(frame: frame, declination: 0.2)
                let inFrame = transform.attitude(fromENU: q)
                #expect(maxDifference(inFrame.gravity(), q.gravity()) < 1e-5)
            }
        }
    }

    @Test func northReferencedFlags() {
        #expect(ReferenceFrame.xMagneticNorthZVertical.isNorthReferenced)
        #expect(ReferenceFrame.xTrueNorthZVertical.isNorthReferenced)
        #expect(!ReferenceFrame.xArbitraryZVertical.isNorthReferenced)
        #expect(!ReferenceFrame.xArbitraryCorrectedZVertical.isNorthReferenced)
        var north = FrameTransform(frame: .xMagneticNorthZVertical)
        north.resetReference()
        #expect(north.isReferenceCaptured)
    }
}
