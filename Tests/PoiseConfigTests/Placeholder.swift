import Testing
@Test func PoiseConfigTestsBuilds() {}
