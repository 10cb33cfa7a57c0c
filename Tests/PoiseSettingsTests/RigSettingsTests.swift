import PoiseConfig
import PoiseDeviceSettings
import PoiseFlightSettings
import PoiseSettings
import Testing

/// The live rig's settings as `FlightCoreFactory.settings` resolves them from the YAML, and as
/// the compiled file carries them to the board.
@Suite struct RigSettingsTests {
    static let robot = """
        board:
          kind: linux
          i2c_bus: /dev/i2c-3
          gpio_chip: pinctrl-rp1
        loop:
          realtime_priority: 40
          cpu: 3
          lock_memory: false
          log_interval: 5
        recording:
          ring_capacity: 4096
          flush_interval: 0.5
          sync_interval: 0
        controller:
          kind: balance
          balance:
            setpoint_file: drive/steps.csv
            encoders:
              counts_per_revolution: 1320
              left_a: 5
              left_b: 6
              right_a: 13
              right_b: 19
        safety:
          arm_source: switch
          switch:
            line: 26
            active_low: true
            bias: pull_up
            debounce_ms: 30
        telemetry:
          address: 192.168.1.20:14550
          signing_key_file: keys/link.key
        input:
          gamepad:
            device: /dev/input/event3
          sticks:
            max_speed_m_s: 0.8

        """

    @Test func aConfigurationResolvesToItsRig() throws {
        let configuration = try PoiseConfiguration.parse(text: Self.robot, file: "robot.yaml")
        let rig = FlightCoreFactory.settings(configuration).rig
        #expect(rig.i2cBus == "/dev/i2c-3")
        #expect(rig.gpioChip == "pinctrl-rp1")
        #expect(rig.sensor == MPU9250Settings(configuration: configuration))
        // An empty chip is the board's.
        #expect(rig.armSwitch == RigSettings.ArmSwitch(chip: "pinctrl-rp1", line: 26, activeLow: true, bias: .pullUp, debounce: 0.03))
        #expect(rig.encoders == RigSettings.WheelEncoders(chip: "pinctrl-rp1", leftA: 5, leftB: 6, rightA: 13, rightB: 19))
        #expect(rig.realtime == RigSettings.Realtime(priority: 40, cpu: 3, lockMemory: false))
        #expect(rig.recording == RigSettings.Recording(flushInterval: 0.5, syncInterval: 0, ringCapacity: 4096))
        #expect(rig.logInterval == 5)
        #expect(rig.telemetry == TelemetrySettings(configuration: configuration))
        #expect(rig.telemetryAddress == "192.168.1.20:14550")
        // Paths as written: the reader resolves them against the configuration's folder.
        #expect(rig.telemetry.signingKeyFile == "keys/link.key")
        #expect(rig.setpointFile == "drive/steps.csv")
        #expect(rig.pilot.sticks == configuration.input.sticks)
        #expect(rig.pilot.maxYawRate == configuration.controller.quad.settings.maxYawRate)
        #expect(rig.gamepad.enabled && rig.gamepad.device == "/dev/input/event3")
    }

    @Test func theDefaultsOpenNoSwitchEncodersTelemetryOrGamepad() throws {
        let rig = FlightCoreFactory.settings(try PoiseConfiguration.parse(text: "board:\n  kind: linux\n", file: "t.yaml")).rig
        #expect(rig.armSwitch == nil && rig.encoders == nil && rig.telemetryAddress == nil && !rig.gamepad.enabled)
        #expect(rig.setpointFile.isEmpty)
        #expect(rig.realtime == RigSettings.Realtime() && rig.recording == RigSettings.Recording())
    }

    /// A built-in drive script travels as rows (FlightSettings.setpoints), not as a file.
    @Test func aBuiltInDriveScriptIsNoFile() throws {
        let configuration = try PoiseConfiguration.parse(
            text: "controller:\n  kind: balance\n  balance:\n    setpoint_file: \"preset:default\"\n", file: "t.yaml")
        let settings = FlightCoreFactory.settings(configuration)
        #expect(settings.rig.setpointFile.isEmpty && !settings.setpoints.driveScript.isEmpty)
    }

    /// The board reads the rig the host resolved, field for field.
    @Test func theCompiledFileCarriesTheRig() throws {
        let settings = FlightCoreFactory.settings(try PoiseConfiguration.parse(text: Self.robot, file: "robot.yaml"))
        let decoded = try CompiledSettings.decode(CompiledSettings.encode(settings))
        #expect(decoded.rig == settings.rig)
    }
}
