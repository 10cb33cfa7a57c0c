import PoiseOutputs
import PoiseHAL

// Rehearsed faults (`simulation.faults`) reach the simulated hardware here: the chips, the
// bus and the output files the real drivers talk to, never the drivers themselves.
extension SimulatedBoard {
    /// Starts and ends every scheduled fault whose start or end lies in (`from`, `to`], s,
    /// before the chip converts up to `to` (so a tick at a fault's start already meets it).
    mutating func applyFaults(from: Double, to: Double) {
        for index in 0..<faultSchedule.faults.count {
            let fault = faultSchedule.faults[index]
            if fault.start > from, fault.start <= to { set(fault.kind, active: true) }
            if fault.end > fault.start, fault.end > from, fault.end <= to { set(fault.kind, active: false) }
        }
    }

    mutating func set(_ kind: SimulatedFault.Kind, active: Bool) {
        switch kind {
        case .nack:
            driver.bus.imu.faults.nack = active
        case .shortRead:
            driver.bus.imu.faults.shortRead = active
        case .stuckData:
            driver.bus.imu.faults.stuckData = active
        case .chipReset:
            // The AK8963 shares the MPU-9250's package and supply: both come back at power-on.
            if active { driver.bus.imu.powerOnResetWithMagnetometer() }
        case .magnetometerLost:
            driver.bus.imu.faults.magnetometerAbsent = active
        case .outputWriteFailure(let channel):
            setOutputFailure(channel: channel, active: active)
        case .stall:
            break  // the loop's clock: rehearsedStall(before:)
        }
    }

    /// Writes to one channel fail with EIO: its GPIO line, its sysfs PWM channel, or — for a
    /// PCA9685 channel — the PCA9685 itself, which stops acknowledging (its 16 channels share
    /// one I²C device, so a failing transfer fails them all).
    mutating func setOutputFailure(channel: Int, active: Bool) {
        guard channel >= 0, channel < readbackSources.count else { return }
        switch readbackSources[channel] {
        case .gpio(let line):
            bank.gpio.failingLine = active ? line : nil
        case .pwm(let chip, let number):
            bank.files.failingChannel = active ? SimulatedPWMFiles.ChannelAddress(chip: chip, channel: number) : nil
        case .pca9685:
            driver.bus.pca9685?.absent = active
        }
    }

    /// A scheduled stall starting by the tick at `time`: the host stops that long, s.
    public mutating func rehearsedStall(before time: Double) -> Double {
        faultSchedule.isEmpty ? 0 : faultSchedule.stall(before: time)
    }
}

extension SimulatedMPU9250 {
    /// Power-on values in the MPU-9250 and its AK8963, as after a brown-out of the package.
    mutating func powerOnResetWithMagnetometer() {
        powerOnReset()
        magnetometer = SimulatedAK8963(asa: errors.magnetometerASA)
    }
}
