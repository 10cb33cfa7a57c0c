/// Why a bench command stopped: the message (`poise: message`) and what to try (`poise: hint`).
public struct BenchFailure: Error, Sendable, Equatable {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}
