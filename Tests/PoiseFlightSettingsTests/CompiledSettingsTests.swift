import PoiseControl
import PoiseFlightSettings
import PoiseFusion
import PropertyBased
import Testing

@Suite struct CompiledSettingsTests {
    /// Every field comes back bit for bit: decoding a file and encoding the result again gives
    /// the same bytes, for settings with every case drawn and every number random.
    @Test func roundTripOfRandomSettings() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            let settings = RandomSettings.make(seed: seed)
            let bytes = CompiledSettings.encode(settings)
            let decoded = try CompiledSettings.decode(bytes)
            #expect(CompiledSettings.encode(decoded) == bytes)
            #expect(decoded.filter.kind == settings.filter.kind)
            #expect(decoded.channels.count == settings.channels.count)
            #expect(decoded.channels.map(\.name) == settings.channels.map(\.name))
            #expect(decoded.frame == settings.frame)
            #expect(decoded.mounting == settings.mounting)
            #expect(decoded.setpoints.driveScript.count == settings.setpoints.driveScript.count)
            #expect(decoded.rig.armSwitch?.chip == settings.rig.armSwitch?.chip)
            #expect(decoded.rig.armSwitch?.bias == settings.rig.armSwitch?.bias)
            #expect(decoded.rig.encoders?.chip == settings.rig.encoders?.chip)
            #expect(decoded.pca9685.address == settings.pca9685.address)
            #expect(decoded.pca9685.frequencyHz.bitPattern == settings.pca9685.frequencyHz.bitPattern)
            #expect(decoded.pca9685.oscillatorHz.bitPattern == settings.pca9685.oscillatorHz.bitPattern)
            #expect(decoded.pwmSysfsRoot == settings.pwmSysfsRoot)
            #expect(decoded.recordedConfiguration == settings.recordedConfiguration)
            #expect(decoded.rig.telemetryAddress == settings.rig.telemetryAddress)
            #expect(decoded.rig.telemetry.signingKeyFile == settings.rig.telemetry.signingKeyFile)
            #expect(decoded.rig.gamepad.device == settings.rig.gamepad.device)
            #expect(decoded.rig.gamepad.x.axis == settings.rig.gamepad.x.axis)
            #expect(decoded.rig.gamepad.armButton == settings.rig.gamepad.armButton)
            #expect(decoded.rig.sensor.mounting == settings.rig.sensor.mounting)
            #expect(decoded.rig.sensor.magnetometerMode == settings.rig.sensor.magnetometerMode)
            #expect(decoded.rig.sensor.accelerometerBandwidth == settings.rig.sensor.accelerometerBandwidth)
        }
    }

    /// The encoder and the filler visit the same fields: a changed number changes the file.
    @Test func everyNumberIsInTheFile() throws {
        let a = CompiledSettings.encode(RandomSettings.make(seed: 1))
        let b = CompiledSettings.encode(RandomSettings.make(seed: 2))
        #expect(a != b)
        let defaults = CompiledSettings.encode(FlightSettings())
        #expect(Array(defaults.prefix(8)) == Array("PoiseCfg".utf8))
        #expect(CompiledSettings.isCompiled(defaults))
    }

    @Test func crc32IsZlibs() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }
}
