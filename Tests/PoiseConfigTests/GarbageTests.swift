import Testing
import PropertyBased
import PoiseConfig
import PoiseSimulation

/// Whatever the text, parsing returns a configuration or positioned errors: no crash, no hang.
func expectGracefulParse(_ text: String) {
    do {
        _ = try PoiseConfiguration.parse(text: text, file: "g.yaml")
    } catch {
        #expect(!error.errors.isEmpty)
        for problem in error.errors {
            #expect(problem.file == "g.yaml")
            #expect(problem.line.map { $0 >= 1 } ?? true, "\(problem)")
            #expect(!problem.message.isEmpty)
        }
    }
}

@Test func randomGarbageNeverCrashes() async {
    let alphabet = Array("abkz019_-.:[]{},#&*!|>'\"%@`?~ \n\n\t\\\u{0}µ")
    await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
        var rng = SplitMix64(seed: seed)
        let count = Int.random(in: 0...300, using: &rng)
        expectGracefulParse(String((0..<count).map { _ in alphabet.randomElement(using: &rng)! }))
    }
}

@Test func mutatedValidFilesNeverCrash() async {
    let original = Array(ConfigWriter.yaml(ConfigSchema.defaults, comments: false))
    let inserts = Array(":-[]{}#&*!|>'\" \n\t0x.yz")
    await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
        var rng = SplitMix64(seed: seed)
        var text = original
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            let index = Int.random(in: 0..<text.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: text.remove(at: index)
            case 1: text.insert(inserts.randomElement(using: &rng)!, at: index)
            default: text[index] = inserts.randomElement(using: &rng)!
            }
        }
        expectGracefulParse(String(text))
    }
}

@Test func deepNestingIsAnErrorNotACrash() {
    expectGracefulParse("board: " + String(repeating: "[", count: 100_000))
    expectGracefulParse(String(repeating: "{a: ", count: 50_000))
}

/// Found by `scripts/fuzz config`: a run of bytes that are not UTF-8 decodes to U+FFFD (three
/// bytes each), so an error clipped to 400 characters still quoted 1 200 bytes of input.
/// Clipping counts bytes now; no error line exceeds 1 000 bytes, whatever the characters.
@Test(arguments: ["\u{FFFD}", "é", "😀", "x"])
func errorsQuoteAtMostAFewHundredBytesOfAnyText(character: String) {
    for text in [String(repeating: character, count: 400), "filter: {name: \(String(repeating: character, count: 500))}",
                 "loop:\n  rate_hz: \(String(repeating: character, count: 600))\n"] {
        do {
            _ = try PoiseConfiguration.parse(text: text, file: "g.yaml")
            Issue.record("accepted garbage")
        } catch {
            for line in error.description.split(separator: "\n") {
                #expect(line.utf8.count <= 1000, "\(line.utf8.count) bytes")
            }
        }
    }
}
