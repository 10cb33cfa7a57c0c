import Testing
@Test func PoisePlotTestsBuilds() {}
