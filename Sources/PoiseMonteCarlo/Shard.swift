/// One part of a sweep spread over machines (`poise simulate --trials N --shard I/K`): trials
/// I, I + K, I + 2K… of 0..<N, so the parts take alike shares of every region of the spread
/// and together run each trial once. Numbered from 0, as a Kubernetes Indexed Job's
/// completion index and a Slurm array `--array=0-(K-1)` number them.
public struct Shard: Sendable, Equatable {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `I/K` with 0 ≤ I < K.
    public init(parsing text: String) throws(MonteCarloError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw MonteCarloError("--shard: I/K (this part's number from 0, then how many parts), not '\(text)'")
        }
        guard count >= 1, (0..<count).contains(index) else {
            throw MonteCarloError("--shard \(text): I must be 0…K−1 (0…\(max(count, 1) - 1)) and K at least 1")
        }
        self.init(index: index, count: count)
    }

    /// This part's trial numbers among `total`.
    public func trials(of total: Int) -> [Int] { Array(stride(from: index, to: total, by: count)) }

    public var text: String { "\(index)/\(count)" }
}
