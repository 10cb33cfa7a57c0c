import Testing
@Test func PoiseMotionTestsBuilds() {}
