import Glibc
import PoiseMath
import PropertyBased
import Testing

/// The project's own elementary functions against glibc's (the reference here, not what runs):
/// within a few units in the last place in Double, and the Float versions within one of the
/// correctly rounded result.
@Suite struct ElementaryTests {
    /// Distance in units in the last place of the larger magnitude (0 for equal values).
    func ulps(_ a: Double, _ b: Double) -> Double {
        if a == b || (a.isNaN && b.isNaN) { return 0 }
        return (a - b).magnitude / max(a.magnitude, b.magnitude, .leastNormalMagnitude).ulp
    }

    func floatUlps(_ a: Float, _ b: Float) -> Float {
        if a == b { return 0 }
        return (a - b).magnitude / max(a.magnitude, b.magnitude, .leastNormalMagnitude).ulp
    }

    @Test func trigonometryWithinFourUlps() async {
        await propertyCheck(count: 2000, input: Gen.double(in: -1000...1000)) { x in
            #expect(ulps(Elementary.sin(x), Glibc.sin(x)) <= 4 || (Elementary.sin(x) - Glibc.sin(x)).magnitude < 1e-16, "sin \(x)")
            #expect(ulps(Elementary.cos(x), Glibc.cos(x)) <= 4 || (Elementary.cos(x) - Glibc.cos(x)).magnitude < 1e-16, "cos \(x)")
            #expect(ulps(Elementary.tan(x), Glibc.tan(x)) <= 8 || (Elementary.tan(x) - Glibc.tan(x)).magnitude < 1e-15, "tan \(x)")
        }
    }

    @Test func inverseTrigonometryWithinFourUlps() async {
        await propertyCheck(count: 2000, input: Gen.double(in: -1...1), Gen.double(in: -1...1)) { y, x in
            #expect(ulps(Elementary.atan2(y, x), Glibc.atan2(y, x)) <= 4, "atan2 \(y) \(x)")
            #expect(ulps(Elementary.asin(x), Glibc.asin(x)) <= 4, "asin \(x)")
            #expect(ulps(Elementary.acos(x), Glibc.acos(x)) <= 4, "acos \(x)")
            #expect(ulps(Elementary.atan(y / x), Glibc.atan(y / x)) <= 4, "atan \(y / x)")
        }
    }

    @Test func exponentialAndLogarithmWithinFourUlps() async {
        await propertyCheck(count: 2000, input: Gen.double(in: -700...700)) { x in
            #expect(ulps(Elementary.exp(x), Glibc.exp(x)) <= 4, "exp \(x)")
            let positive = x.magnitude + 1e-300
            #expect(ulps(Elementary.log(positive), Glibc.log(positive)) <= 4, "log \(positive)")
        }
        await propertyCheck(count: 500, input: Gen.double(in: 1e-12...1e12)) { x in
            #expect(ulps(_log10(x), Glibc.log10(x)) <= 4, "log10 \(x)")
        }
    }

    @Test func floatVersionsWithinOneUlpOfGlibc() async {
        await propertyCheck(count: 2000, input: Gen.float(in: -10...10), Gen.float(in: -10...10)) { y, x in
            #expect(floatUlps(_sin(x), sinf(x)) <= 1, "sinf \(x)")
            #expect(floatUlps(_cos(x), cosf(x)) <= 1, "cosf \(x)")
            #expect(floatUlps(_atan2(y, x), atan2f(y, x)) <= 1, "atan2f \(y) \(x)")
            #expect(floatUlps(_exp(x), expf(x)) <= 1, "expf \(x)")
            let unit = x / 10
            #expect(floatUlps(_asin(unit), asinf(unit)) <= 1, "asinf \(unit)")
            #expect(floatUlps(_acos(unit), acosf(unit)) <= 1, "acosf \(unit)")
        }
    }

    /// C's conventions where they matter to an attitude: signed zeros, the ±π cut, infinities,
    /// NaN, arguments outside the domain.
    @Test func edgesFollowC() {
        for (y, x) in [(0.0, 1.0), (-0.0, 1.0), (0.0, -1.0), (-0.0, -1.0), (0.0, 0.0), (-0.0, -0.0), (0.0, -0.0),
                       (1.0, 0.0), (-1.0, 0.0), (1.0, .infinity), (1.0, -.infinity), (.infinity, 1.0),
                       (-.infinity, -.infinity), (.infinity, .infinity), (-1.0, -1e-300)] {
            let mine = Elementary.atan2(y, x), theirs = Glibc.atan2(y, x)
            #expect(mine == theirs && mine.sign == theirs.sign, "atan2(\(y), \(x)): \(mine) vs \(theirs)")
        }
        #expect(Elementary.atan2(.nan, 1).isNaN && Elementary.atan2(1, .nan).isNaN)
        #expect(Elementary.asin(1.5).isNaN && Elementary.acos(-1.5).isNaN && Elementary.log(-1).isNaN)
        #expect(Elementary.sin(.infinity).isNaN && Elementary.cos(.nan).isNaN && Elementary.tan(-.infinity).isNaN)
        #expect(Elementary.exp(710) == .infinity && Elementary.exp(-746) == 0 && Elementary.exp(0) == 1)
        #expect(Elementary.log(0) == -.infinity && Elementary.log(.infinity) == .infinity && Elementary.log(1) == 0)
        #expect(Elementary.asin(1) == Double.pi / 2 && Elementary.acos(-1) == Double.pi && Elementary.acos(1) == 0)
        #expect(Elementary.sin(-0.0).sign == .minus)
        // Subnormal arguments and results.
        #expect(ulps(Elementary.log(0x1p-1060), Glibc.log(0x1p-1060)) <= 4)
        #expect(ulps(Elementary.exp(-740), Glibc.exp(-740)) <= 4)
        // Far arguments give a finite answer in [−1, 1] and never trap.
        for x in [1e9, -3e15, 1e300, -Double.greatestFiniteMagnitude] {
            #expect(Elementary.sin(x).magnitude <= 1 && Elementary.cos(x).magnitude <= 1)
        }
    }
}
