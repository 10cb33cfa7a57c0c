import Testing
@Test func PoiseCLITestsBuilds() {}
