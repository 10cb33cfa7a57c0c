import Testing
@testable import PoiseEvaluation
import PoiseMath

private let degree: Float = .pi / 180

/// A varied set of reference attitudes (heading, pitch and roll all changing).
private func references(_ count: Int) -> [Quaternion] {
    (0..<count).map { i in
        let t = Float(i) / Float(count)
        return Quaternion(axis: SIMD3(0, 0, 1), angle: 6 * t)
            * Quaternion(axis: SIMD3(1, 0, 0), angle: 0.8 * _sin(9 * t))
            * Quaternion(axis: SIMD3(0, 1, 0), angle: 0.5 * _cos(5 * t))
    }
}

@Suite("BroadScorer")
struct BroadScorerTests {
    @Test func perfectEstimateScoresZero() {
        var scorer = BroadScorer()
        for q in references(500) { scorer.add(estimate: q, reference: q, scored: true) }
        let r = scorer.result(removingHeadingOffset: false)
        #expect(r.scoredRows == 500)
        #expect(r.total < 0.01 && r.heading < 0.01 && r.inclination < 0.01)
    }

    @Test func constantTiltIsInclinationOnly() {
        var scorer = BroadScorer()
        // A 1° error about world x: q_est = R_x(1°) ⊗ q_ref.
        let tilt = Quaternion(axis: SIMD3(1, 0, 0), angle: 1 * degree)
        for q in references(500) { scorer.add(estimate: tilt * q, reference: q, scored: true) }
        for remove in [false, true] {
            let r = scorer.result(removingHeadingOffset: remove)
            #expect(abs(r.total - 1) < 0.01)
            #expect(abs(r.inclination - 1) < 0.01)
            #expect(r.heading < 0.01)
        }
    }

    @Test func headingOffsetCountsIn9DAndIsRemovedIn6D() {
        var scorer = BroadScorer()
        let offset = Quaternion(axis: SIMD3(0, 0, 1), angle: 5 * degree)
        for q in references(500) { scorer.add(estimate: offset * q, reference: q, scored: true) }
        let nine = scorer.result(removingHeadingOffset: false)
        #expect(abs(nine.total - 5) < 0.01)
        #expect(abs(nine.heading - 5) < 0.01)
        #expect(nine.inclination < 0.01)
        let six = scorer.result(removingHeadingOffset: true)
        #expect(six.total < 0.01 && six.heading < 0.01)
        #expect(abs(six.headingOffset + 5) < 0.01)
    }

    @Test func removesLargeOffsetAcrossTheWrap() {
        var scorer = BroadScorer()
        for (i, q) in references(400).enumerated() {
            // 179° ± 3° wobble: the errors straddle ±180°.
            let heading = (179 + 3 * _sin(Float(i) * 0.1)) * degree
            scorer.add(estimate: Quaternion(axis: SIMD3(0, 0, 1), angle: heading) * q,
                       reference: q, scored: true)
        }
        let six = scorer.result(removingHeadingOffset: true)
        // What remains is the wobble: RMS of 3°·sin over many periods ≈ 2.12°.
        #expect(abs(six.heading - 3 / 2.0.squareRoot()) < 0.1)
    }

    @Test func ignoresUnscoredRowsAndMissingReferences() {
        var scorer = BroadScorer()
        let q = Quaternion(axis: SIMD3(0, 1, 0), angle: 0.3)
        let wrong = Quaternion(axis: SIMD3(1, 0, 0), angle: 1)
        scorer.add(estimate: wrong, reference: q, scored: false)
        scorer.add(estimate: wrong, reference: nil, scored: true)
        scorer.add(estimate: q, reference: q, scored: true)
        #expect(scorer.scoredRows == 1)
        #expect(scorer.result(removingHeadingOffset: false).total < 0.01)
    }

    @Test func signOfQuaternionsDoesNotMatter() {
        var scorer = BroadScorer()
        let q = Quaternion(axis: SIMD3(0, 1, 0), angle: 0.3)
        scorer.add(estimate: Quaternion(components: -q.components), reference: q, scored: true)
        #expect(scorer.result(removingHeadingOffset: false).total < 0.01)
    }

    @Test func nonFiniteEstimateIsWorstCase() {
        var scorer = BroadScorer()
        scorer.add(estimate: Quaternion(w: .nan, x: 0, y: 0, z: 0), reference: .identity, scored: true)
        #expect(abs(scorer.result(removingHeadingOffset: false).total - 180) < 0.01)
    }

    @Test func emptyTrialIsNaN() {
        let r = BroadScorer().result(removingHeadingOffset: true)
        #expect(r.scoredRows == 0 && r.total.isNaN)
    }
}

@Suite("Movement ranges")
struct MovementRangeTests {
    @Test func parsesOneAndSeveralRanges() throws {
        #expect(try movementRanges(from: "9656:45663") == [9656..<45663])
        #expect(try movementRanges(from: " 1:5, 10:20 ") == [1..<5, 10..<20])
        #expect(isScored(row: 12, in: [1..<5, 10..<20]))
        #expect(!isScored(row: 5, in: [1..<5, 10..<20]))
    }

    @Test(arguments: ["", "12", "a:b", "5:5", "9:3", "-1:4", "1:5,4:8", "1:2:3", "1:5,"])
    func rejectsMalformedValues(_ value: String) {
        #expect(throws: MovementRangeError.self) { try movementRanges(from: value) }
    }

    @Test func errorSaysWhatIsWrong() {
        do {
            _ = try movementRanges(from: "9:3")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "movement: empty range 9:3 in '9:3'")
        }
    }
}

@Suite("Result formatting")
struct ResultFormattingTests {
    let results = [
        NamedResult(name: "a", result: TrialResult(total: 1.234, heading: 1, inclination: 0.5, scoredRows: 10)),
        NamedResult(name: "b\"x", result: TrialResult(total: 3, heading: 2, inclination: .nan, scoredRows: 20)),
    ]

    @Test func tableHasMeanRow() {
        let table = formatResultTable(results)
        let lines = table.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("a "))
        #expect(lines[1].contains("1.23"))
        #expect(lines[3].hasPrefix("mean"))
        #expect(lines[3].contains("2.12"))
    }

    @Test func jsonEscapesAndWritesNull() {
        let json = encodeResultsJSON(results)
        #expect(json.hasPrefix("{\"unit\":\"deg\",\"trials\":[{\"name\":\"a\",\"total\":1.234"))
        #expect(json.contains("\"name\":\"b\\\"x\""))
        #expect(json.contains("\"inclination\":null"))
        #expect(json.contains("\"mean\":{\"total\":2.117"))
    }

    @Test func fixedRoundsToHundredths() {
        #expect(fixed(2.005) == "2.01" || fixed(2.005) == "2.00")
        #expect(fixed(0.04) == "0.04")
        #expect(fixed(-1.5) == "-1.50")
        #expect(fixed(.infinity) == "nan")
    }
}
