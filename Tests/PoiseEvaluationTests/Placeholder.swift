import Testing
@Test func PoiseEvaluationTestsBuilds() {}
