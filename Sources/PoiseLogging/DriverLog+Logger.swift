import Logging
import PoiseHAL

// The host's drivers log through swift-log: a `DriverLog` that hands each message to a
// `Logger`, from the logger's own level up, under the driver's module as its source (what
// swift-log prints in brackets), not this adapter's.
extension DriverLog {
    public init(_ logger: Logger, source: String = "PoiseSensors") {
        let minimum: Level = switch logger.logLevel {
        case .trace, .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error, .critical: .error
        }
        self.init(minimumLevel: minimum) { level, message in
            switch level {
            case .debug: logger.debug("\(message)", source: source)
            case .info: logger.info("\(message)", source: source)
            case .notice: logger.notice("\(message)", source: source)
            case .warning: logger.warning("\(message)", source: source)
            case .error: logger.error("\(message)", source: source)
            }
        }
    }
}
