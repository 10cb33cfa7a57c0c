import Testing
@Test func PoiseSensorsTestsBuilds() {}
