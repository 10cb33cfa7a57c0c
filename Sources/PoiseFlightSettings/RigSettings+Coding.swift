import PoiseControl
import PoiseDeviceSettings
import PoiseMath

// The `RIGS` section's fields, in order (FlightSettings+Coding.swift names the sections). An
// optional value is a flag (present or not), then its fields when present.

extension RigSettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&i2cBus)
        try c.code(&sensor)
        try c.code(&gpioChip)
        try c.code(&armSwitch, blank: ArmSwitch(chip: "", line: 0))
        try c.code(&encoders, blank: WheelEncoders(chip: "", leftA: 0, leftB: 0, rightA: 0, rightB: 0))
        try c.code(&realtime.priority)
        try c.code(&realtime.cpu)
        try c.code(&realtime.lockMemory)
        try c.code(&recording.flushInterval)
        try c.code(&recording.syncInterval)
        try c.code(&recording.ringCapacity)
        try c.code(&logInterval)
        try c.code(&telemetry)
        try c.code(&telemetryAddress)
        try c.code(&pilot.maxYawRate)
        try c.code(&pilot.sticks.maxTilt)
        try c.code(&pilot.sticks.maxSpeed)
        try c.code(&pilot.sticks.maxTurnRate)
        try c.code(&setpointFile)
        try c.code(&gamepad)
    }
}

extension RigSettings.ArmSwitch: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&chip)
        try c.code(&line)
        try c.code(&activeLow)
        try c.code(&bias, "a switch bias")
        try c.code(&debounce)
    }
}

extension RigSettings.WheelEncoders: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&chip)
        try c.code(&leftA)
        try c.code(&leftB)
        try c.code(&rightA)
        try c.code(&rightB)
    }
}

extension MPU9250Settings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&address)
        try c.code(&accelerometerRange, "an accelerometer range")
        try c.code(&gyroscopeRange, "a gyroscope range")
        try c.code(&gyroscopeBandwidth, "a gyroscope bandwidth")
        try c.code(&accelerometerBandwidth, "an accelerometer bandwidth")
        try c.code(&sampleRateDivider)
        let start = c.offset
        var text = mounting.description
        try c.code(&text)
        do throws(MountingError) { mounting = try Mounting(text) } catch {
            throw CompiledSettingsError(.invalidValue(what: "a mounting", value: text), at: start)
        }
        try c.code(&magnetometerMode, "a magnetometer mode")
        try c.code(&tickRate)
        try c.code(&magnetometerInterval)
        try c.code(&useFIFO)
        try c.code(&maxFramesPerRead)
        try c.code(&retries)
        try c.code(&lostAfterFailures)
        try c.code(&stuckAfterIdenticalReads)
        try c.code(&reinitInterval)
        try c.code(&resetDelay)
        try c.code(&magnetometerSilentAfterReads)
    }
}

extension TelemetrySettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&systemID)
        try c.code(&componentID)
        try c.code(&heartbeatHz)
        try c.code(&attitudeHz)
        try c.code(&imuHz)
        try c.code(&outputsHz)
        try c.code(&statusHz)
        try c.code(&world, "a world layout")
        try c.code(&levelChannels)
        try c.code(&unixTimeAtSensorZero)
        try c.code(&acceptCommands)
        try c.code(&signingKeyFile)
        try c.code(&setpointTimeout)
        try c.code(&maximumIncomingRate)
    }
}

extension GamepadSettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&device)
        try c.code(&name)
        try c.code(&x)
        try c.code(&y)
        try c.code(&z)
        try c.code(&r)
        try c.code(&deadzone)
        try c.code(&armButton, "a gamepad button")
        try c.code(&disarmButton, "a gamepad button")
    }
}

extension GamepadStick: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&axis, "a gamepad axis")
        try c.code(&inverted)
    }
}

extension SettingsCoder {
    /// A 16-bit number as two bytes, low first.
    public mutating func code(_ value: inout UInt16) throws(CompiledSettingsError) {
        var low = UInt8(truncatingIfNeeded: value), high = UInt8(truncatingIfNeeded: value >> 8)
        try code(&low)
        try code(&high)
        value = UInt16(low) | UInt16(high) << 8
    }

    /// An optional value: a flag, then the value's fields when it is there; a decoded value
    /// starts from `blank`.
    public mutating func code<Value: SettingsCodable>(_ value: inout Value?, blank: Value) throws(CompiledSettingsError) {
        var present = value != nil
        try code(&present)
        guard present else {
            value = nil
            return
        }
        var field = value ?? blank
        try code(&field)
        value = field
    }

    /// An optional text: a flag, then the text when it is there.
    public mutating func code(_ value: inout String?) throws(CompiledSettingsError) {
        var present = value != nil
        try code(&present)
        guard present else {
            value = nil
            return
        }
        var text = value ?? ""
        try code(&text)
        value = text
    }

    /// An optional number: a flag, then the number when it is there.
    public mutating func code(_ value: inout Double?) throws(CompiledSettingsError) {
        var present = value != nil
        try code(&present)
        guard present else {
            value = nil
            return
        }
        var number = value ?? 0
        try code(&number)
        value = number
    }
}
