import PoiseConfig
import PoiseRun
import Testing

@Test func builtInConfigurationIsTheShippedFile() throws {
    let path = ClosedLoopTests.repository + "/configs/sim-balancing-robot.yaml"
    #expect(try PoiseConfiguration.readText(path: path) == BuiltInConfiguration.text)
    _ = try PoiseConfiguration.parse(text: BuiltInConfiguration.text, file: BuiltInConfiguration.name)
}
