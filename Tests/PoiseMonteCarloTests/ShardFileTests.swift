@testable import PoiseMonteCarlo
import PropertyBased
import Testing

/// A shard's file: what a part writes reads back to the same bits, and any damage to it is
/// refused with its line, never a crash or a wrong merge.
struct ShardFileTests {
    /// Characters a failsafe reason or a divergence cause could hold, the escaped ones among them.
    static let alphabet = Array("ab -%\t\n\r,:°µ✓0")

    @Test func textReadsBackAsWritten() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max), Gen.double(in: -1000...1000)) { seed, x in
            var random = seed
            func next(_ n: Int) -> Int { random = random &* 6364136223846793005 &+ 1442695040888963407; return Int((UInt64(bitPattern: Int64(random)) >> 33) % UInt64(n)) }
            let text = String((0..<next(12)).map { _ in Self.alphabet[next(Self.alphabet.count)] })
            #expect(ShardFile.unescaped(ShardFile.escaped(text)) == text)
            let escaped = ShardFile.escaped(text)
            #expect(!escaped.contains("\t") && !escaped.contains("\n") && !escaped.contains(",") && escaped != "-")
            // Every double reads back to the same bits.
            let y = x * Double(next(1000) + 1) / 7
            #expect(Double(ShardFile.number(y)).map { $0.bitPattern } == y.bitPattern)
        }
    }

    /// A well-formed file with one byte changed is read or refused with a position.
    @Test func aDamagedFileIsRefusedWithItsLine() async {
        let good = """
            poise-monte-carlo-shard 1
            sweep 4 trials, shard 1/2, fingerprint 00000000000000aa
            \(ShardFile.columns.joined(separator: "\t"))
            1\t1\t0\t3.602\t-\t-\t-\t-\t-\t0.064\t0.09\t0.25\t-\t0.0
            3\t0\t0\t3.602\t4.5\ttilt%2C beyond\t-\t-\tsettling time,worst true pitch\t-\t-\t-\t-\t0.1
            end 2

            """
        #expect(throws: Never.self) { _ = try ShardFile.read("p", good, fingerprint: "00000000000000aa", trials: 4) }
        let read = try? ShardFile.read("p", good, fingerprint: "00000000000000aa", trials: 4)
        #expect(read?.trials.map(\.trial) == [1, 3])
        #expect(read?.trials.last?.failsafeReason == "tilt, beyond")
        #expect(read?.trials.last?.nonFinite == ["settling time", "worst true pitch"])
        let bytes = Array(good.utf8)
        await propertyCheck(count: 300, input: Gen.int(in: 0...(bytes.count - 1)), Gen.int(in: 0...255)) { at, byte in
            var damaged = bytes
            damaged[at] = UInt8(byte)
            let text = String(decoding: damaged, as: UTF8.self)
            do {
                _ = try ShardFile.read("p", text, fingerprint: "00000000000000aa", trials: 4)
            } catch {
                #expect("\(error)".hasPrefix("p:"), "\(error)")
            }
        }
    }
}
