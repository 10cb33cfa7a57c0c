import Logging
import PoiseHAL

// The host's drivers log through swift-log: a `DriverLog` that hands each message to a
// `Logger`, from the logger's own level up.
extension DriverLog {
    public init(_ logger: Logger) {
        let minimum: Level = switch logger.logLevel {
        case .trace, .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error, .critical: .error
        }
        self.init(minimumLevel: minimum) { level, message in
            switch level {
            case .debug: logger.debug("\(message)")
            case .info: logger.info("\(message)")
            case .notice: logger.notice("\(message)")
            case .warning: logger.warning("\(message)")
            case .error: logger.error("\(message)")
            }
        }
    }
}
