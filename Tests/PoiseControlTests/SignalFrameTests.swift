// Placeholder so the target builds; tests arrive with the module.
import Testing
@testable import PoiseControl
@Test func signalIndicesAreDense() {
    #expect(Set(OutputSignal.allCases.map(\.index)) == Set(0..<SignalFrame.capacity))
}
