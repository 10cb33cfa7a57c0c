import Testing
@Test func PoiseIOTestsBuilds() {}
