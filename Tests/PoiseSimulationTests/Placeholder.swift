import Testing
import PoiseSimulation
@Test func simulationModuleLinks() {}
