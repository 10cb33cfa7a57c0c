import Testing
@Test func PoiseRuntimeTestsBuilds() {}
