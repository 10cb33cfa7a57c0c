import Testing
@Test func PoiseMathTestsBuilds() {}
