import PoiseControl
import PoiseDeviceSettings
import PoiseFusion
import PoiseHAL
import PoiseMath
import PoiseOutputs
import PoiseSensors

// The file's sections, in order. A new setting goes into its struct's `code` below (or a new
// section here) and raises `CompiledSettings.formatVersion`.
extension FlightSettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.section(SectionTag("FILT")) { (c: inout Coder) throws(CompiledSettingsError) in try c.code(&filter) }
        try c.section(SectionTag("GYRO")) { (c: inout Coder) throws(CompiledSettingsError) in try c.code(&gyroFilters) }
        try c.section(SectionTag("CTRL")) { (c: inout Coder) throws(CompiledSettingsError) in try c.code(&controller) }
        try c.section(SectionTag("SAFE")) { (c: inout Coder) throws(CompiledSettingsError) in try c.code(&safety) }
        try c.section(SectionTag("OUTS")) { (c: inout Coder) throws(CompiledSettingsError) in
            try c.code(&channels, blank: OutputChannelSpec.blank, limit: 64)
            try c.code(&pca9685.address)
            try c.code(&pca9685.frequencyHz)
            try c.code(&pca9685.oscillatorHz)
            try c.code(&pwmSysfsRoot)
        }
        try c.section(SectionTag("FRAM")) { (c: inout Coder) throws(CompiledSettingsError) in
            let start = c.offset
            var name = frame.name
            try c.code(&name)
            guard let decoded = OutputFrame(name: name) else {
                throw CompiledSettingsError(.invalidValue(what: "an output frame", value: name), at: start)
            }
            frame = decoded
            try c.code(&declinationDegrees)
        }
        try c.section(SectionTag("SENS")) { (c: inout Coder) throws(CompiledSettingsError) in
            try c.code(&calibration)
            let start = c.offset
            var text = mounting.description
            try c.code(&text)
            do throws(MountingError) { mounting = try Mounting(text) } catch {
                throw CompiledSettingsError(.invalidValue(what: "a mounting", value: text), at: start)
            }
        }
        try c.section(SectionTag("LOOP")) { (c: inout Coder) throws(CompiledSettingsError) in
            try c.code(&loopRateHz)
            try c.code(&startupBiasDuration)
        }
        try c.section(SectionTag("SETP")) { (c: inout Coder) throws(CompiledSettingsError) in try c.code(&setpoints) }
        try c.section(SectionTag("RIGS")) { (c: inout Coder) throws(CompiledSettingsError) in try c.code(&rig) }
        try c.section(SectionTag("CONF")) { (c: inout Coder) throws(CompiledSettingsError) in
            var count = UInt32(recordedConfiguration.count)
            let start = c.offset
            try c.codeCount(&count)
            guard count <= 4096 else {
                throw CompiledSettingsError(.invalidValue(what: "a configuration's line count", value: String(count)), at: start)
            }
            if recordedConfiguration.count != Int(count) { recordedConfiguration = Array(repeating: "", count: Int(count)) }
            for index in recordedConfiguration.indices { try c.code(&recordedConfiguration[index]) }
        }
    }
}

extension FilterSettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&kind, "a filter kind")
        try c.code(&complementary)
        try c.code(&mahony)
        try c.code(&madgwick)
        try c.code(&mekf)
        try c.code(&poise)
    }
}

extension SampleScreen: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&maximumStep)
        try c.code(&minimumAcceleration)
        try c.code(&maximumAcceleration)
        try c.code(&minimumMagneticField)
        try c.code(&maximumMagneticField)
    }
}

extension ComplementaryFilter.Settings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&timeConstant)
        try c.code(&screen)
    }
}

extension MahonyFilter.Settings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&kp)
        try c.code(&ki)
        try c.code(&screen)
    }
}

extension MadgwickFilter.Settings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&beta)
        try c.code(&startupGain)
        try c.code(&startupTime)
        try c.code(&screen)
    }
}

extension MultiplicativeKalmanFilter.Settings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&gyroscopeNoise)
        try c.code(&gyroscopeBiasNoise)
        try c.code(&accelerometerNoise)
        try c.code(&magnetometerNoise)
        try c.code(&accelerationRejection)
        try c.code(&magneticNormTolerance)
        try c.code(&magneticDipTolerance)
        try c.code(&magneticRecoveryTime)
        try c.code(&initialBiasUncertainty)
        try c.code(&restTime)
        try c.code(&screen)
    }
}

extension PoiseFilter.Settings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&accelerometerTimeConstant)
        try c.code(&magnetometerTimeConstant)
        try c.code(&restBiasEstimation)
        try c.code(&motionBiasEstimation)
        try c.code(&magneticDisturbanceRejection)
        try c.code(&hardIronEstimation)
        try c.code(&hardIronTimeConstant)
        try c.code(&hardIronMinimumImprovement)
        try c.code(&hardIronMaximumResidual)
        try c.code(&magnetometerLatencyEstimation)
        try c.code(&magnetometerLatency)
        try c.code(&restGyroscopeThreshold)
        try c.code(&restAccelerometerThreshold)
        try c.code(&restTime)
        try c.code(&restFilterTimeConstant)
        try c.code(&biasLimit)
        try c.code(&biasInitialUncertainty)
        try c.code(&biasMotionUncertainty)
        try c.code(&biasMotionRateUncertainty)
        try c.code(&biasRestUncertainty)
        try c.code(&biasForgettingTime)
        try c.code(&gyroscopeScaleUncertainty)
        try c.code(&accelerationRejectionThreshold)
        try c.code(&accelerationRejectionTime)
        try c.code(&magneticNormThreshold)
        try c.code(&magneticDipThreshold)
        try c.code(&magneticHeadingThreshold)
        try c.code(&magneticReferenceTimeConstant)
        try c.code(&magneticUndisturbedTime)
        try c.code(&magneticNewFieldTime)
        try c.code(&magneticFirstFieldTime)
        try c.code(&magneticNewFieldMinimumRate)
        try c.code(&magneticMaximumRejectionTime)
        try c.code(&magneticRejectionFactor)
        try c.code(&screen)
        try c.code(&maximumAngularRate)
        try c.code(&leverArm)
        try c.code(&bodyVelocityTimeConstant)
    }
}

extension GyroFilterSettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&lowPassCutoff)
        try c.code(&lowPassOrder)
        try c.code(&notches, blank: GyroNotchSettings(), limit: GyroFilterSettings.notchCount)
    }
}

extension GyroNotchSettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&mode, "a notch mode")
        try c.code(&centerFrequency)
        try c.code(&bandwidth)
        try c.code(&attenuation)
        try c.code(&harmonics)
        try c.code(&referenceThrottle)
        try c.code(&minimumFrequency)
    }
}

extension ControllerSettings: SettingsCodable {
    /// A tag byte (0 none, 1 balance, 2 quadrotor), then that controller's settings.
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        let start = c.offset
        var tag: UInt8
        switch self {
        case .none: tag = 0
        case .balance: tag = 1
        case .quad: tag = 2
        }
        try c.code(&tag)
        switch tag {
        case 0:
            self = .none
        case 1:
            var settings = BalanceSettings()
            if case .balance(let current) = self { settings = current }
            try c.code(&settings)
            self = .balance(settings)
        case 2:
            var settings = QuadSettings()
            if case .quad(let current) = self { settings = current }
            try c.code(&settings)
            self = .quad(settings)
        default:
            throw CompiledSettingsError(.invalidValue(what: "a controller kind", value: "\(tag)"), at: start)
        }
    }
}

extension PIDSettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&proportionalGain)
        try c.code(&integralGain)
        try c.code(&derivativeGain)
        try c.code(&derivativeCutoffHz)
        try c.code(&outputLimit)
        try c.code(&integralLimit)
    }
}

extension BalanceSettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&pitch)
        try c.code(&pitchSetpoint)
        try c.code(&driveFeedback)
        try c.code(&driveFeedbackCutoffHz)
        try c.code(&yawRate)
        try c.code(&fullDriveSpeed)
        try c.code(&accelerationLean)
        try c.code(&maxAcceleration)
        try c.code(&turnFeedforward)
        try c.code(&encoderCountsPerRevolution)
        try c.code(&wheelRadius)
        try c.code(&deadbandCompensation)
    }
}

extension QuadSettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&frame, "a quadrotor frame")
        try c.code(&angleGain)
        try c.code(&maxTiltRate)
        try c.code(&pitchRate)
        try c.code(&rollRate)
        try c.code(&yawRate)
        try c.code(&headingGain)
        try c.code(&maxYawRate)
        try c.code(&idleThrottle)
        try c.code(&rateOffset)
    }
}

extension SafetySettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&maxTilt)
        try c.code(&armTilt)
        try c.code(&armHoldTime)
        try c.code(&sensorTimeout)
        try c.code(&overrunLimit)
        try c.code(&autoArm)
        try c.code(&stallTime)
        try c.code(&armSource, "an arm source")
        try c.code(&rearm, "a re-arm policy")
    }
}

extension OutputChannelSpec: SettingsCodable {
    /// A decoded channel starts from this; its fields are then overwritten.
    public static var blank: OutputChannelSpec {
        OutputChannelSpec(name: "", hardware: .pca9685(channel: 0), mapping: ChannelMapping(signal: .fault, kind: .level(threshold: 0)))
    }

    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&name)
        try c.code(&hardware)
        try c.code(&mapping)
    }
}

extension OutputChannelSpec.Hardware: SettingsCodable {
    /// A tag byte (0 GPIO line, 1 sysfs PWM, 2 PCA9685), then that hardware's fields.
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        let start = c.offset
        var tag: UInt8
        switch self {
        case .gpio: tag = 0
        case .pwm: tag = 1
        case .pca9685: tag = 2
        }
        try c.code(&tag)
        switch tag {
        case 0:
            var request = GPIOLineRequest(chip: "", line: 0)
            if case .gpio(let current) = self { request = current }
            try c.code(&request)
            self = .gpio(request)
        case 1:
            var (chip, channel, period, polarity) = (0, 0, UInt64(0), PWMPolarity.normal)
            if case .pwm(let a, let b, let p, let q) = self { (chip, channel, period, polarity) = (a, b, p, q) }
            try c.code(&chip)
            try c.code(&channel)
            try c.code(&period)
            try c.code(&polarity, "a PWM polarity")
            self = .pwm(chip: chip, channel: channel, periodNanoseconds: period, polarity: polarity)
        case 2:
            var channel = 0
            if case .pca9685(let current) = self { channel = current }
            try c.code(&channel)
            self = .pca9685(channel: channel)
        default:
            throw CompiledSettingsError(.invalidValue(what: "an output hardware kind", value: "\(tag)"), at: start)
        }
    }
}

extension GPIOLineRequest: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&chip)
        try c.code(&line)
        try c.code(&activeLow)
        try c.code(&drive, "a GPIO drive")
        try c.code(&initialValue)
        try c.code(&consumer)
    }
}

extension ChannelMapping: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&signal, "an output signal")
        let start = c.offset
        var tag: UInt8
        var threshold: Float = 0
        var period: UInt32 = 0
        switch kind {
        case .level(let t): (tag, threshold) = (0, t)
        case .pulse(let p): (tag, period) = (1, p)
        }
        try c.code(&tag)
        switch tag {
        case 0:
            try c.code(&threshold)
            kind = .level(threshold: threshold)
        case 1:
            try c.code(&period)
            kind = .pulse(periodNanoseconds: period)
        default:
            throw CompiledSettingsError(.invalidValue(what: "a channel kind", value: "\(tag)"), at: start)
        }
        try c.code(&inputMin)
        try c.code(&inputMax)
        try c.code(&outputMinNanoseconds)
        try c.code(&outputMaxNanoseconds)
        try c.code(&invert)
        try c.code(&slewRate)
        try c.code(&safeValue)
    }
}

extension SensorCalibration: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&gyroscopeBias)
        try c.code(&accelerometerOffset)
        try c.code(&accelerometerScale)
        try c.code(&magnetometerHardIron)
        try c.code(&magnetometerSoftIron.0)
        try c.code(&magnetometerSoftIron.1)
        try c.code(&magnetometerSoftIron.2)
    }
}

extension SetpointSettings: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&quadThrottle)
        try c.code(&driveScript, blank: DriveScriptRow(time: 0, setpoint: DriveSetpoint()))
    }
}

extension DriveScriptRow: SettingsCodable {
    public mutating func code<Coder: SettingsCoder>(_ c: inout Coder) throws(CompiledSettingsError) {
        try c.code(&time)
        try c.code(&setpoint.speed)
        try c.code(&setpoint.turnRate)
    }
}
