import PoiseMath
import PropertyBased
import Testing

@Suite struct AnglesTests {
    @Test func wrapping() async {
        #expect(wrappedAngle(-Float.pi) == Float.pi)
        #expect(wrappedAngle(-Float.pi.nextUp) == Float.pi)
        #expect(wrappedAngle(Float.pi.nextUp) == Float.pi.nextUp)
        #expect(wrappedAngle(-Float.pi.nextDown) == -Float.pi.nextDown)
        #expect(wrappedAngle(Float.pi) == Float.pi)
        #expect(wrappedAngle(0) == 0)
        #expect(abs(wrappedAngle(3 * Float.pi / 2) + Float.pi / 2) < 1e-6)
        #expect(wrappedAngle(.nan).isNaN)
        await propertyCheck(count: 300, input: Gen.float(in: -1000...1000)) { a in
            let w = wrappedAngle(a)
            #expect(w > -Float.pi && w <= Float.pi.nextUp)
            #expect(abs(_sin(w) - _sin(a)) < 1e-3 && abs(_cos(w) - _cos(a)) < 1e-3)
        }
    }

    @Test func degreeConversions() {
        #expect(abs(radians(fromDegrees: 180) - Float.pi) < 1e-6)
        #expect(abs(degrees(fromRadians: Float.pi / 2) - 90) < 1e-5)
    }
}
