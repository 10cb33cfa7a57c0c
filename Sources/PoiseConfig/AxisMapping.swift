import PoiseDeviceSettings

/// How the chip is mounted, as `board.mounting` holds it: the driver's own ``Mounting`` (one
/// type and one parser for the `+y-x+z` notation; see there).
///
/// Written as three signed axis letters, one per body axis in x, y, z order: `+y-x+z` means
/// body x = chip +y, body y = chip −x, body z = chip +z (the chip turned 90° about z). Only the
/// 24 proper rotations are accepted; a mirror image (determinant −1) such as `+x+y-z` would
/// silently flip the handedness of every estimate, so it is rejected.
public typealias AxisMapping = Mounting

extension Mounting {
    /// Parses `+x+y+z`-style text with ``Mounting/init(_:)``; the error says why it is not a
    /// proper rotation.
    public static func parse(_ text: String) -> Result<Mounting, MountingError> {
        do throws(MountingError) {
            return .success(try Mounting(text))
        } catch {
            return .failure(error)
        }
    }

    /// All 24 proper rotations, in `+x+y+z` notation.
    public static let allNames: [String] = all.map(\.description)
}
