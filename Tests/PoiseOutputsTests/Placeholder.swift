import Testing
import PoiseOutputs
@Test func outputsModuleLinks() {}
