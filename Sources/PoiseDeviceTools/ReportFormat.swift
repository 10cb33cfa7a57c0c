/// The number formats of the bench reports, without Foundation (the board has none).
public enum ReportFormat {
    /// `0x68`.
    public static func hex(_ value: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
        return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)])
    }

    /// `value` with exactly `digits` decimals.
    public static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var fraction = String(Int(scaled.truncatingRemainder(dividingBy: scale)))
        while fraction.count < digits { fraction = "0" + fraction }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return digits == 0 ? sign + String(whole) : sign + String(whole) + "." + fraction
    }

    /// A rate in Hz: whole numbers plain, others with one decimal (333.3).
    public static func rate(_ hertz: Double) -> String {
        hertz == hertz.rounded() ? fixed(hertz, 0) : fixed(hertz, 1)
    }

    /// Right-aligned columns, 9 characters each.
    public static func row(_ cells: [String]) -> String {
        var line = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 { line += " " }
            line += String(repeating: " ", count: max(0, 9 - cell.count)) + cell
        }
        return line
    }
}
