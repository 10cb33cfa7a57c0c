/// One fault the simulated board rehearses (`simulation.faults`), in the manner of
/// ArduPilot SITL's `SIM_*` failure parameters: what fails, from when, for how long.
public struct SimulatedFault: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The MPU-9250 acknowledges no transfer (EREMOTEIO), as if unplugged.
        case nack
        /// Its reads end early; the kernel reports EIO.
        case shortRead
        /// Its data registers keep their last values while data-ready still says new.
        case stuckData
        /// It returns to its power-on registers (a brown-out), AK8963 included: an instant.
        case chipReset
        /// The AK8963 stops answering at 0x0C.
        case magnetometerLost
        /// Writes to output channel `channel` (its index in the bank) fail.
        case outputWriteFailure(channel: Int)
        /// The host stops the loop for the duration: the next tick wakes that late.
        case stall
    }

    public var kind: Kind
    /// When it starts, s on the loop's clock.
    public var start: Double
    /// How long it lasts, s (`.infinity`: to the end of the run); a stall's jump; 0 for an instant.
    public var duration: Double

    public init(_ kind: Kind, at start: Double, duration: Double) {
        self.kind = kind
        self.start = start
        self.duration = duration
    }

    /// When it stops acting, s (a stall acts only at its start).
    public var end: Double {
        switch kind {
        case .chipReset, .stall: start
        default: start + duration
        }
    }
}

/// The faults of one run, applied as simulated time passes them.
///
/// Built once before the loop starts; between ticks the board walks the list without
/// changing it (no allocation, no copy), applying each fault that starts or ends in the time
/// just passed. The result depends only on the list and the times, so a run stays
/// reproducible by its configuration and seed.
public struct SimulatedFaultSchedule: Sendable {
    public let faults: [SimulatedFault]
    /// The tick time the last stall query covered, s.
    var stallsCoveredUntil = -Double.infinity

    public init(_ faults: [SimulatedFault] = []) {
        self.faults = faults
    }

    public var isEmpty: Bool { faults.isEmpty }

    /// The jump of a stall starting in (the previous query's time, `time`], s; 0 for none.
    mutating func stall(before time: Double) -> Double {
        var jump = 0.0
        for index in 0..<faults.count {
            let fault = faults[index]
            if case .stall = fault.kind, fault.start > stallsCoveredUntil, fault.start <= time { jump += fault.duration }
        }
        stallsCoveredUntil = time
        return jump
    }
}
