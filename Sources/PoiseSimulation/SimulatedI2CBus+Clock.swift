// The shared simulated bus keeps time for the MPU-9250 on it, so a driver that owns the
// bus can be advanced like a driver on the bare chip (`MPU9250.tick(at:)`).
extension SimulatedI2CBus: SimulatedClock {
    public mutating func advance(to time: Double) { imu.advance(to: time) }
}
