import Testing
@Test func PoiseTracesTestsBuilds() {}
