import PoiseControl

extension DriveSchedule {
    /// The table's rows, times rising: what a compiled configuration carries of a built-in
    /// drive script (PoiseSettings' `FlightCoreFactory.driveScript`).
    public var rows: [(time: Double, setpoint: DriveSetpoint)] {
        (0..<count).map { (times[$0], setpoints[$0]) }
    }
}
