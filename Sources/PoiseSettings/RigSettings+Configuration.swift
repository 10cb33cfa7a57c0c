import PoiseConfig
import PoiseDeviceSettings
import PoiseFlightSettings
import PoiseSchedules

extension RigSettings {
    /// The live rig a configuration describes: the keys as the loop's parts take them, a chip
    /// left empty replaced by `board.gpio_chip`, the arming switch only when
    /// `safety.arm_source` is `switch`, the encoders only on a balancing robot that has them.
    public init(configuration: PoiseConfiguration) {
        let board = configuration.board, loop = configuration.loop, recording = configuration.recording
        let controller = configuration.controller
        self.init(i2cBus: board.i2cBus, sensor: MPU9250Settings(configuration: configuration), gpioChip: board.gpioChip)
        if configuration.safety.supervisor.armSource == .armSwitch {
            let s = configuration.safety.armSwitch
            armSwitch = ArmSwitch(chip: s.chip.isEmpty ? board.gpioChip : s.chip, line: UInt32(s.line), activeLow: s.activeLow,
                                  bias: ArmSwitch.Bias(rawValue: s.bias.rawValue) ?? .asIs, debounce: s.debounceMilliseconds / 1000)
        }
        if controller.kind == .balance, controller.balance.encoderCountsPerRevolution > 0 {
            let d = controller.drive
            encoders = WheelEncoders(chip: d.encoderChip.isEmpty ? board.gpioChip : d.encoderChip, leftA: UInt32(d.leftA),
                                     leftB: UInt32(d.leftB), rightA: UInt32(d.rightA), rightB: UInt32(d.rightB))
        }
        realtime = Realtime(priority: loop.realtimePriority, cpu: loop.cpu, lockMemory: loop.lockMemory)
        self.recording = Recording(flushInterval: recording.flushInterval, syncInterval: recording.syncInterval,
                                   ringCapacity: recording.ringCapacity)
        logInterval = loop.logInterval
        telemetry = TelemetrySettings(configuration: configuration)
        telemetryAddress = configuration.telemetry.address
        let input = configuration.input
        pilot = Pilot(maxYawRate: controller.quad.settings.maxYawRate, sticks: input.sticks)
        switch controller.kind {
        case .quadX, .quadPlus: setpointFile = controller.quad.setpointFile
        case .balance: setpointFile = controller.drive.setpointFile.hasPrefix(DriveSchedule.presetPrefix) ? "" : controller.drive.setpointFile
        case .none: setpointFile = ""
        }
        gamepad = input.gamepad
    }
}
