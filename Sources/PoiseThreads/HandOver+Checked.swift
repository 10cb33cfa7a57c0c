import PoiseFlightCore
// The hand-overs the live loop uses, specialised and checked here (release builds), so the
// loop in another module calls checked, non-generic entry points.
extension SettingsMailbox where Value == ReloadableSettings {
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public func takeTuning() -> ReloadableSettings? { take() }
}

extension TripleBuffer where Value == TickRecord {
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public func publishRecord(_ record: TickRecord) { publish(record) }
}
