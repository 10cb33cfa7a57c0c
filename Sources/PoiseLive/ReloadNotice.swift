/// What a reload (SIGHUP) says when it undoes parameters set over MAVLink and never stored
/// (it takes the file and the stored parameters, nothing else): the same words from `poise run`
/// and `poise-board run`, on the program's log and to the ground station (a STATUSTEXT, whose
/// first 50-character piece already holds the count).
public enum ReloadNotice {
    /// "SIGHUP reverted 1 change set over MAVLink, not stored: BAL_PIT_P 31.5 -> 30.0", from
    /// each change as "NAME OLD -> NEW" (ASCII: a ground station shows it); nil when none.
    public static func reverted(_ changes: [String]) -> String? {
        guard !changes.isEmpty else { return nil }
        var text = "SIGHUP reverted " + String(changes.count) + (changes.count == 1 ? " change" : " changes")
            + " set over MAVLink, not stored: "
        for (index, change) in changes.enumerated() { text += (index == 0 ? "" : ", ") + change }
        return text
    }

    /// The ground station's severity for it: MAV_SEVERITY_WARNING.
    public static let severity: UInt8 = 4
}
