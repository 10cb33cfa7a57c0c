/// Where a driver's messages go: a level and a sentence, handed to a sink the program chose.
///
/// The drivers build in Embedded Swift for the board, where swift-log's existential handlers
/// cannot go, so they speak to this plain value instead; the host wraps its `Logger` in one
/// (PoiseLogging), the board writes to standard error. A message below `minimumLevel` is never
/// built.
public struct DriverLog: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug, info, notice, warning, error

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    public var minimumLevel: Level
    let sink: @Sendable (Level, String) -> Void

    public init(minimumLevel: Level = .info, _ sink: @escaping @Sendable (Level, String) -> Void) {
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    /// Says nothing.
    public static var silent: DriverLog { DriverLog(minimumLevel: .error) { _, _ in } }

    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        sink(level, message())
    }

    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
