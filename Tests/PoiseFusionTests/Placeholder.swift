import Testing
@Test func PoiseFusionTestsBuilds() {}
