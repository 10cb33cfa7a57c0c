import PoiseMath
import Testing
@testable import PoiseMotion
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct DeterministicElementaryTests {
    @Test func sinCosMatchTheCLibrary() {
        var random = DeterministicRandom(seed: 3)
        for _ in 0..<20_000 {
            // Magnitudes from 1e-3 to 2e8 rad.
            let x = (random.nextUniform() - 0.5) * 2 * [1e-3, 1, 10, 1e4, 1e6, 2e8][Int.random(in: 0..<6, using: &random)]
            #expect(abs(Elementary.sin(x) - sin(x)) < 3e-16, "\(x)")
            #expect(abs(Elementary.cos(x) - cos(x)) < 3e-16, "\(x)")
        }
        #expect(Elementary.sin(0) == 0)
        #expect(Elementary.cos(0) == 1)
        #expect(Elementary.sin(.infinity).isNaN)
    }

    @Test func logMatchesTheCLibrary() {
        var random = DeterministicRandom(seed: 4)
        for _ in 0..<20_000 {
            let x = Double((random.next() >> 11) + 1) * 0x1p-53
            #expect(abs(Elementary.log(x) - log(x)) <= 4e-16 * Swift.max(1, abs(log(x))))
        }
        #expect(Elementary.log(1) == 0)
        #expect(Elementary.log(0) == -.infinity)
        #expect(Elementary.log(-1).isNaN)
    }

    @Test func sameSeedSameSequence() {
        var a = DeterministicRandom(seed: 99), b = DeterministicRandom(seed: 99), c = DeterministicRandom(seed: 100)
        var differs = false
        for _ in 0..<1000 {
            let x = a.nextGaussian()
            #expect(x.bitPattern == b.nextGaussian().bitPattern)
            if x != c.nextGaussian() { differs = true }
        }
        #expect(differs)
    }

    @Test func gaussianHasUnitVariance() {
        var random = DeterministicRandom(seed: 11)
        var sum = 0.0, sumSquares = 0.0
        let n = 200_000
        for _ in 0..<n {
            let x = random.nextGaussian()
            sum += x
            sumSquares += x * x
        }
        let mean = sum / Double(n)
        let variance = sumSquares / Double(n) - mean * mean
        #expect(abs(mean) < 0.01)
        #expect(abs(variance - 1) < 0.015)
    }
}
