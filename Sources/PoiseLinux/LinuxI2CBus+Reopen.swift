import PoiseHAL
#if hasFeature(Embedded)
import PoiseLibc  // the board: the C library without Glibc's overlay
#elseif canImport(Glibc)
import Glibc
#endif

extension LinuxI2CBus {
    /// Reopens the bus's device file under the same descriptor number: opens `path` afresh,
    /// `dup2`s it onto the descriptor the bus (and the tick using it, on another thread) holds,
    /// and closes the spare. An adapter that went away and came back (a module reloaded, a
    /// USB adapter re-plugged) gets a new i2c-dev file; the old one answers ENODEV for ever.
    /// Not for the real-time thread: it opens a file. The address selected with `I2C_SLAVE`
    /// does not carry over; the bus re-selects it after the first failed transfer.
    public func reopen() -> Result<Void, I2CError> {
        let fresh: CInt
        switch I2CTransfer.open(path) {
        case .success(let opened): fresh = opened
        case .failure(let errno): return .failure(I2CError(.open, address: nil, bus: path, errno: errno))
        }
        defer { _ = system_close(fresh) }
        if case .failure(let errno) = valueOrErrno({ system_dup2(fresh, descriptor) }) {
            return .failure(I2CError(.open, address: nil, bus: path, errno: errno))
        }
        return .success(())
    }
}
