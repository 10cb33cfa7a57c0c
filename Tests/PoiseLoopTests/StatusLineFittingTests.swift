import Testing
@testable import PoiseReporting

/// The status line cut to the terminal's width, by the function that formats it.
@Suite struct StatusLineFittingTests {
    let status = "t 12.3 s  armed  pitch +0.4°  roll -0.1°  yaw +12.0°  left_pwm 12.5µs  right_pwm 12.5µs  late p99 12µs  compute p99 41µs  dropped 0"

    @Test(arguments: Array(1...140))
    func aCutStatusFitsWithAColumnToSpare(columns: Int) {
        let fitted = StatusLine.fitted(status, columns: columns)
        #expect(fitted.count <= max(columns - 1, 0))
        if status.count < columns {
            #expect(fitted == status)
        } else if columns > 2 {
            #expect(fitted.hasSuffix("…"))
            #expect(status.hasPrefix(String(fitted.dropLast())))
        }
    }

    @Test func noWidthCutsNothing() {
        #expect(StatusLine.fitted(status, columns: nil) == status)
    }

    @Test func theWidthComesFromColumnsWhenTheTerminalDoesNotSay() {
        #expect(StatusLine.terminalColumns(environment: ["COLUMNS": "72"]) == 72)
        #expect(StatusLine.terminalColumns(environment: ["COLUMNS": "wide"]) == nil)
        #expect(StatusLine.terminalColumns(environment: [:]) == nil)
    }
}
