import Testing
import PropertyBased
import PoiseConfig

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
