extension PoiseConfiguration {
    /// `loop`.
    public struct Loop: Equatable, Sendable {
        /// Hz.
        public var rateHz: Double
        public var overrunLimit: Int
        /// SCHED_FIFO priority; 0 = normal scheduling.
        public var realtimePriority: Int
        /// −1 = any CPU.
        public var cpu: Int

        init(_ v: ConfigTable) {
            rateHz = v.number("loop.rate_hz")
            overrunLimit = v.integer("loop.overrun_limit")
            realtimePriority = v.integer("loop.realtime_priority")
            cpu = v.integer("loop.cpu")
        }
    }
}
