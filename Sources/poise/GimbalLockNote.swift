/// Near ±90° pitch, roll and yaw are ill-defined (gimbal lock): they jump although the attitude
/// does not, which looks like a filter failure. The note plots and their commands print then.
enum GimbalLockNote {
    /// Nil when no pitch comes within 5° of ±90°; else the note, from the first such time.
    static func text(time: [Double], pitchDegrees: [Double], suggestion: String) -> String? {
        guard let index = pitchDegrees.indices.first(where: { abs(pitchDegrees[$0]) > 85 }),
              index < time.count else { return nil }
        return "pitch is near ±90° from t = \(formatted(time[index], digits: 2)) s: roll and yaw jump there "
            + "by construction (gimbal lock), not by filter error; \(suggestion)"
    }
}
