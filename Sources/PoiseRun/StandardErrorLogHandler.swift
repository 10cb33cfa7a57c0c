import Glibc
import Logging
import PoiseReporting

/// swift-log's lines for the loop's threads (the sensor driver, the bus reopener), as
/// `StreamLogHandler.standardError` words them, written through ``printToStandardError(_:)``:
/// one write each, erasing the status line first while it shows, so a driver's warning is
/// never glued onto the status.
struct StandardErrorLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    init(label: String) { self.label = label }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = event.metadata.map { metadata.merging($0) { $1 } } ?? metadata
        let shown = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        printToStandardError("\(Self.timestamp()) \(event.level) \(label):\(shown) [\(event.source)] \(event.message)\n")
    }

    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [Int8](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
