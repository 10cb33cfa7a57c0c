import Testing
@testable import PoiseMotion

@Suite struct MotionScriptParsingTests {
    @Test func parsesTheDocumentedExample() throws {
        let text = """
            # comments
            rest 2                       # seconds
            rotate z 90 deg over 1.5 s   # body axis
            rotate x -45 deg over 1 s
            spin y 180 deg/s for 2 s
            shake 3 s amplitude 2 m/s2 frequency 4 hz
            wobble 5 s amplitude 10 deg frequency 1 hz
            rotate 0.6,0.8,0 1 rad over 500 ms
            repeat 3 { rotate z 90 deg over 1 s ; rest 0.5 }
            """
        let script = try MotionScript(parsing: text)
        #expect(script.segments.count == 13)
        #expect(script.segments[0] == .rest(duration: 2))
        #expect(script.segments[1] == .rotate(axis: SIMD3(0, 0, 1), angle: .pi / 2, duration: 1.5))
        #expect(script.segments[2] == .rotate(axis: SIMD3(1, 0, 0), angle: -45 * .pi / 180, duration: 1))
        #expect(script.segments[3] == .spin(axis: SIMD3(0, 1, 0), rate: .pi, duration: 2))
        #expect(script.segments[4] == .shake(direction: SIMD3(1, 0, 0), amplitude: 2, frequency: 4, duration: 3))
        #expect(script.segments[5] == .wobble(axis: SIMD3(1, 0, 0), amplitude: 10 * .pi / 180, frequency: 1, duration: 5))
        #expect(script.segments[6] == .rotate(axis: SIMD3(0.6, 0.8, 0), angle: 1, duration: 0.5))
        #expect(script.segments[7] == .rotate(axis: SIMD3(0, 0, 1), angle: .pi / 2, duration: 1))
        #expect(script.segments[12] == .rest(duration: 0.5))
        #expect(abs(script.duration - 19.5) < 1e-12)
    }

    @Test func multiLineAndNestedRepeat() throws {
        let script = try MotionScript(parsing: """
            repeat 2 {
              REST 1 S
              repeat 3 { move -z 5 cm over 1 s }
            }
            shake 1 amplitude 0.5 g frequency 2 Hz along 0,0,1
            """)
        #expect(script.segments.count == 9)
        #expect(script.segments[1] == .move(direction: SIMD3(0, 0, -1), distance: 0.05, duration: 1))
        #expect(script.segments[8] == .shake(direction: SIMD3(0, 0, 1), amplitude: 0.5 * 9.80665, frequency: 2, duration: 1))
    }

    @Test func emptyScriptIsValid() throws {
        #expect(try MotionScript(parsing: "# nothing\n\n;;").segments.isEmpty)
    }

    /// (script, expected "line:column: message" prefix)
    static let badScripts: [(String, String)] = [
        ("rest 2\nrotate z 90 over 1 s", "bad:2:13: expected an angle unit (deg or rad) after '90', found 'over'"),
        ("rest 2\n  rotat z 90 deg over 1 s", "bad:2:3: unknown statement 'rotat'"),
        ("rest -1", "bad:1:6: duration must be positive"),
        ("rest abc", "bad:1:6: expected a duration (a number), found 'abc'"),
        ("rotate 0,0,0 90 deg over 1 s", "bad:1:8: axis vector must not be zero"),
        ("rotate w 90 deg over 1 s", "bad:1:8: expected an axis"),
        ("rotate z 90 deg in 1 s", "bad:1:17: expected 'over' after the angle, found 'in'"),
        ("spin z 90 deg for 1 s", "bad:1:11: expected a rate unit"),
        ("repeat 2 {\n  rest 1\n", "bad:3:1: missing '}' to close the 'repeat' at 1:1"),
        ("rest 1\n}", "bad:2:1: '}' without a matching 'repeat {'"),
        ("repeat 0 { rest 1 }", "bad:1:8: repeat count must be a whole number"),
        ("repeat 2.5 { rest 1 }", "bad:1:8: repeat count must be a whole number"),
        ("repeat 2 rest 1", "bad:1:10: expected '{' after the repeat count"),
        ("rest 1 2", "bad:1:8: unexpected '2' after the statement"),
        ("shake 1 s amplitude 2 m/s2 frequency 0 hz", "bad:1:38: frequency must be positive"),
        ("wobble 1 s amplitude 2 deg frequency 3", "bad:1:39: expected a frequency unit (hz) after '3', found end of script"),
        ("rest nan", "bad:1:6: expected a duration (a number), found 'nan'"),
        ("rest 1e400", "bad:1:6: expected a duration (a number), found '1e400'"),
        ("repeat 100000 { repeat 100000 { rest 1 } }", "bad:1:1: script expands to more than 100000 segments"),
        ("repeat 1000 { rest 1000 ; rest 1000 }", "bad:1:1: script is longer than 1000000 s"),
        ("{", "bad:1:1: expected a statement"),
        ("rotate z 90deg over 1 s", "bad:1:10: write a space between the number and its unit ('90 deg')"),
        ("rest 2s", "bad:1:6: write a space between the number and its unit ('2 s')"),
        ("rotate 0.6, 0.8, 0 1 rad over 1 s", "bad:1:8: write the axis vector without spaces"),
        ("spin x 1e300 rad/s for 1 s", "bad:1:8: rate is larger than 100000 rad/s"),
        ("rotate x 1e9 deg over 1 s", "bad:1:10: angle is larger than 1000000 rad"),
        ("rest 1e-9", "bad:1:6: duration must be at least 1 µs"),
        ("rest 1 # ok\n   # fine\n\tspin x 1 rad/s for", "bad:3:20: expected a duration, found end of script"),
    ]

    @Test(arguments: badScripts)
    func reportsPositionedErrors(source: String, expected: String) {
        do {
            let script = try MotionScript(parsing: source, name: "bad")
            Issue.record("parsed without error: \(script.segments.count) segments")
        } catch {
            #expect(error.description.hasPrefix(expected), "got: \(error.description)")
        }
    }

    @Test func deepNestingIsRejectedNotACrash() {
        let source = String(repeating: "repeat 1 { ", count: 40) + "rest 1" + String(repeating: " }", count: 40)
        #expect(throws: MotionScriptError.self) { try MotionScript(parsing: source) }
    }

    @Test func everyPresetParses() throws {
        #expect(MotionScript.presetNames.contains("demo"))
        for name in MotionScript.presetNames {
            let script = try #require(MotionScript.preset(named: name))
            #expect(script.duration > 10, "\(name)")
            _ = try MotionScript(parsing: MotionScript.presetSource(named: name)!, name: name)
        }
        #expect(MotionScript.preset(named: "no-such-motion") == nil)
    }
}
