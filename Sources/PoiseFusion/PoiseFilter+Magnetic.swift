import PoiseMath

/// Magnetic disturbance detection for `PoiseFilter`.
///
/// The field seen in the (heading-free) earth frame has a norm and a dip angle that, in an
/// undisturbed place, stay constant whatever the attitude. A reference norm and dip is tracked
/// slowly; a reading off the reference by more than the thresholds is a disturbance. A new
/// field that stays consistent — while the sensor rotates, so that a magnet carried with the
/// sensor cannot pass for one — for long enough becomes the new reference.
@frozen
public struct PoiseFilterMagneticDetector: Sendable {
    /// Reference field norm, µT (0 until the first reference is accepted).
    public var referenceNorm: Float
    /// Reference dip angle, rad (positive when the field points up; Earth's is mostly down).
    public var referenceDip: Float
    /// Candidate field for a new reference.
    public var candidateNorm: Float
    public var candidateDip: Float
    /// Time the candidate has been consistent (during rotation, once a reference exists), s.
    public var candidateTime: Float
    /// Time the field has matched the reference without interruption, s.
    public var undisturbedTime: Float
    /// Whether the field is currently considered disturbed.
    public var isDisturbed: Bool
    /// Disturbance time budget used so far, s.
    public var rejectionTime: Float
    /// The reference was taken from readings the hard-iron offset now in use would have
    /// changed: a steady new field replaces it as quickly as the first field did.
    public var provisional: Bool
    /// A provisional reference was just replaced: the heading should start up again.
    public var replacedProvisional: Bool

    @inlinable
    public init() {
        referenceNorm = 0
        referenceDip = 0
        candidateNorm = -1
        candidateDip = 0
        candidateTime = 0
        undisturbedTime = 0
        isDisturbed = false
        rejectionTime = 0
        provisional = false
        replacedProvisional = false
    }

    /// Whether a reference field exists yet.
    @inlinable public var hasReference: Bool { referenceNorm > 0 }

    /// Classifies one reading of norm (µT) and dip (rad); `rateSquared` is the squared
    /// angular rate, (rad/s)².
    @inlinable @inline(__always)
    public mutating func update(norm: Float, dip: Float, rateSquared: Float, dt: Float,
                                settings: PoiseFilter.Settings) {
        let k = min(dt / settings.magneticReferenceTimeConstant, 1)
        if hasReference, abs(norm - referenceNorm) < settings.magneticNormThreshold * referenceNorm,
           abs(dip - referenceDip) < settings.magneticDipThreshold {
            undisturbedTime += dt
            if undisturbedTime >= settings.magneticUndisturbedTime {
                isDisturbed = false
                provisional = false
                referenceNorm += k * (norm - referenceNorm)
                referenceDip += k * (dip - referenceDip)
            }
        } else {
            undisturbedTime = 0
            isDisturbed = hasReference
        }
        // Track a candidate for a new reference whenever the field is not the reference.
        guard isDisturbed || !hasReference else {
            candidateNorm = -1
            candidateTime = 0
            return
        }
        if candidateNorm > 0, abs(norm - candidateNorm) < settings.magneticNormThreshold * candidateNorm,
           abs(dip - candidateDip) < settings.magneticDipThreshold {
            candidateNorm += k * (norm - candidateNorm)
            candidateDip += k * (dip - candidateDip)
            if !hasReference {
                candidateTime += dt
                if candidateTime >= settings.magneticFirstFieldTime { accept() }
            } else if rateSquared
                        >= settings.magneticNewFieldMinimumRate * settings.magneticNewFieldMinimumRate {
                candidateTime += dt
                let needed = provisional ? settings.magneticFirstFieldTime : settings.magneticNewFieldTime
                if candidateTime >= needed {
                    replacedProvisional = provisional
                    accept()
                }
            }
        } else {
            candidateNorm = norm
            candidateDip = dip
            candidateTime = 0
        }
    }

    @inlinable
    mutating func accept() {
        referenceNorm = candidateNorm
        referenceDip = candidateDip
        candidateNorm = -1
        candidateTime = 0
        isDisturbed = false
        undisturbedTime = 0
        rejectionTime = 0
        provisional = false
    }
}

extension PoiseFilter {
    /// Heading correction from one magnetometer sample `m` (µT, screened); `rate` is the
    /// bias-corrected gyroscope, rad/s.
    @inlinable @inline(__always)
    mutating func updateHeading(_ m: SIMD3<Float>, rate: SIMD3<Float>, dt: Float,
                                flags: inout FilterFlags) {
        let field = earthAttitude.rotate(m)
        let norm2 = dot(field, field)
        let horizontal2 = field.x * field.x + field.y * field.y
        // Near a magnetic pole (or in a vertical disturbance) heading is undefined.
        guard horizontal2 > 1e-4 * norm2, norm2 > 1e-6 else { return }

        var gain = min(dt * inverseMagnetometerTimeConstant, 1)
        if settings.magneticDisturbanceRejection {
            // Two hardware square roots in one call (the detector alone uses them; the
            // attitude does not depend on their last bits).
            let roots = squareRoots(SIMD2(horizontal2, norm2))
            let dip = Self.arcTangent(field.z, roots.x)
            magnetic.update(norm: roots.y, dip: dip,
                            rateSquared: dot(rate, rate), dt: dt, settings: settings)
            if magnetic.isDisturbed {
                flags.insert(.magneticDisturbance)
                if magnetic.rejectionTime < settings.magneticMaximumRejectionTime {
                    magnetic.rejectionTime += dt
                    return
                }
                gain /= settings.magneticRejectionFactor
            } else {
                magnetic.rejectionTime = max(
                    magnetic.rejectionTime - settings.magneticRejectionFactor * dt, 0)
            }
        }
        magnetometerLatency.observe(field: field, rate: rate, attitude: earthAttitude, dt: dt)
        if magnetic.replacedProvisional {
            // The heading was set from readings the offset now in use would have changed.
            magnetic.replacedProvisional = false
            magneticSamples = 0
        }
        // Start-up: average the first headings rather than trusting the first one.
        magneticSamples += 1
        let settled = magneticSamples * gain >= 1
        if !settled {
            gain = 1 / magneticSamples
            flags.insert(.headingInitialising)
        }

        // The heading correction turns about z only: with c = cos δ, s = sin δ taken from its
        // (w, z), the corrected horizontal field is a plane rotation of the earth-frame one.
        let h = headingCorrection
        let c = h.w * h.w - h.z * h.z, s = 2 * h.w * h.z
        let east = c * field.x - s * field.y, north = s * field.x + c * field.y
        let error = Self.arcTangent(east, north)  // angle of the field east of north
        // A magnet the sensor moves past can turn the field for seconds while its norm and dip
        // pass the tests above; only the gyroscope can tell. So once the heading has settled and
        // the field has been trusted throughout, a disagreement counts for no more than
        // `magneticHeadingThreshold` (about twice one reading's heading noise), or twice what
        // the gyroscope's scale uncertainty may have turned the heading since, if that is more
        // (after fast turns). Right after a rejection the gyroscope may have drifted by more
        // still, and the correction is not limited.
        let limit = settled && magnetic.rejectionTime == 0
            ? max(settings.magneticHeadingThreshold, 2 * headingDrift) : Float.infinity
        headingDrift *= 1 - gain
        let turn = Self.rotationAboutVertical(gain * min(max(error, -limit), limit))
        // Product of two rotations about z.
        headingCorrection = Self.renormalized(Quaternion(
            w: turn.w * h.w - turn.z * h.z, x: 0, y: 0, z: turn.w * h.z + turn.z * h.w))
        flags.insert(.magnetometerUsed)
    }
}

extension PoiseFilter {
    /// The hard-iron offset has moved. If the disturbance reference no longer describes the
    /// field the corrected readings will show — it was taken from readings with the offset in
    /// them, as when a magnet is there from start-up — it becomes provisional: a steady field
    /// during rotation replaces it as quickly as the first field was accepted, and the heading
    /// then starts up again. The fit's own field only flags this; the readings must agree
    /// before anything changes, because a fit that spans the moment a magnet arrives lands
    /// short of its offset (taking its field as the reference at once cost the carried 4 cm
    /// magnet 2.3° → 16°; restarting the heading whenever the fit's field pointed more than
    /// the heading threshold away cost the carried 6 cm one 1.2° → 2.8°).
    @inlinable @inline(never)
    mutating func hardIronMoved() {
        let h = hardIron.fittedField
        let roots = squareRoots(SIMD2(h.x * h.x + h.y * h.y, dot(h, h)))
        let dip = Self.arcTangent(h.z, roots.x)
        guard magnetic.hasReference, roots.y > 0 else { return }
        magnetic.provisional =
            abs(roots.y - magnetic.referenceNorm) >= settings.magneticNormThreshold * magnetic.referenceNorm
            || abs(dip - magnetic.referenceDip) >= settings.magneticDipThreshold
    }
}

extension PoiseFilter {
    /// Whether the heading rests on magnetometer readings not yet checked for a carried offset
    /// (`FilterFlags.headingUnverified`). Worked out when the status is read, not per sample.
    @inlinable
    var headingIsUnverified: Bool {
        // Only a heading the magnetometer sets (9D) can be misled by it.
        guard magneticSamples > 0 || magnetic.hasReference else { return false }
        if magnetic.provisional { return true }
        // Disabled, the offset is the configuration's to get right.
        guard hardIron.isEnabled else { return false }
        guard hardIron.isVerified else { return true }
        // The field the latest fit finds, seen through the heading correction, points north
        // when the heading agrees with the readings less the learned offset.
        let field = hardIron.latestField, h = headingCorrection
        let c = h.w * h.w - h.z * h.z, s = 2 * h.w * h.z
        let east = c * field.x - s * field.y, north = s * field.x + c * field.y
        return abs(Self.arcTangent(east, north)) > settings.magneticHeadingThreshold
    }
}
