import PoiseControl

/// The part of a configuration SIGHUP may change while the loop runs: gains, limits and
/// output mappings. Built and validated off the real-time thread; ``FlightCore/apply(_:)``
/// swaps it in between ticks.
public struct ReloadableSettings: Sendable {
    public enum Controller: Sendable {
        case none
        case balance(BalanceSettings)
        case quad(QuadSettings)
    }
    public var controller: Controller
    public var safety: SafetySettings
    public var mapper: OutputMapper

    public init(controller: Controller, safety: SafetySettings, mapper: OutputMapper) {
        self.controller = controller
        self.safety = safety
        self.mapper = mapper
    }
}

extension FlightCore {
    /// Takes new tuning; controller state (integrators, filters) carries on. False when the
    /// tuning is for another kind of controller (that needs a restart).
    @inlinable
    public mutating func apply(_ tuning: ReloadableSettings) -> Bool {
        switch (controller, tuning.controller) {
        case (.none, .none):
            break
        case (.balance(var balance), .balance(let settings)):
            balance.settings = settings
            controller = .balance(balance)
        case (.quad(var quad), .quad(let settings)):
            quad.settings = settings
            controller = .quad(quad)
        default:
            return false
        }
        supervisor.settings = tuning.safety
        mapper.adoptMappings(of: tuning.mapper)
        return true
    }
}
