import PoiseHAL

/// Why a gamepad could not be used, said so a user can act on it.
public enum GamepadError: Error, Equatable, CustomStringConvertible {
    /// The device file could not be opened.
    case cannotOpen(path: String, errno: Errno)
    /// No device of that name.
    case notFound(name: String, available: [String])
    /// `/dev/input` could not be listed.
    case cannotList(directory: String, errno: Errno)
    /// The file is not an evdev device (`EVIOCGNAME` refused).
    case notAnInputDevice(path: String, errno: Errno)
    /// The device reports no absolute axes: a keyboard, a mouse, a power button.
    case notAGamepad(path: String, name: String)
    /// The mapping names an axis the device lacks.
    case missingAxis(path: String, name: String, key: String, axis: String, available: [String])

    public var description: String {
        switch self {
        case .cannotOpen(let path, .noSuchFileOrDirectory), .cannotOpen(let path, .noSuchAddressOrDevice),
             .cannotOpen(let path, .operationNotSupportedByDevice):
            "gamepad: \(path) does not exist (is the gamepad connected? `poise gamepad` lists the input devices)"
        case .cannotOpen(let path, .permissionDenied), .cannotOpen(let path, .notPermitted):
            "gamepad: no permission to read \(path): input devices belong to the group `input`; "
                + "add the user to it (sudo usermod -aG input $USER, then log in again), see docs/gamepad.md"
        case .cannotOpen(let path, let errno):
            "gamepad: cannot open \(path): \(errno.description) (\(errno.symbolicName))"
        case .notFound(let name, let available):
            "gamepad: no input device named \"\(name)\""
                + (available.isEmpty ? " (no input devices could be read; `poise gamepad` says why)"
                   : "; the devices are: " + available.map { "\"\($0)\"" }.joined(separator: ", "))
        case .cannotList(let directory, let errno):
            "gamepad: cannot list \(directory): \(errno.description) (\(errno.symbolicName))"
        case .notAnInputDevice(let path, let errno):
            "gamepad: \(path) is not an input event device (\(errno.symbolicName) to EVIOCGNAME)"
        case .notAGamepad(let path, let name):
            "gamepad: \(path) (\"\(name)\") is not a gamepad: it reports no absolute axes (a keyboard, a mouse or a button?)"
        case .missingAxis(let path, let name, let key, let axis, let available):
            "gamepad: \(path) (\"\(name)\") has no \(axis) axis (\(key)); its axes: \(available.joined(separator: ", "))"
        }
    }
}
