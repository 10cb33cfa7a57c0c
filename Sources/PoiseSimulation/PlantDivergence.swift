import Synchronization

/// A plant whose integration broke down: its state became non-finite, or it is too stiff
/// for any step the integrator will take. From then on the plant no longer moves, and
/// nothing a run measured after ``time`` is a measurement of it.
///
/// Found from the state itself (every integration step checks it), not from limits tuned to
/// one robot: a figure that is infinite or NaN cannot be a body's pose or speed.
public struct PlantDivergence: Sendable, Equatable, CustomStringConvertible {
    /// Simulated time of the step that broke down, s.
    public var time: Double
    /// What went non-finite or why it cannot be integrated, in words
    /// ("non-finite lean rate, axle speed").
    public var cause: String

    public init(time: Double, cause: String) {
        self.time = time
        self.cause = cause
    }

    public var description: String { "diverged at \(Self.seconds(time)) s: \(cause)" }

    /// A time to the millisecond (the fastest loop ticks at 0.5 ms; the step is finer).
    static func seconds(_ t: Double) -> String {
        guard t.isFinite else { return "\(t)" }
        let ms = (t * 1000).rounded()
        let whole = Int(ms) / 1000, fraction = abs(Int(ms)) % 1000
        return "\(whole).\(String(repeating: "0", count: 3 - String(fraction).count))\(fraction)"
    }

    /// A decay rate in whole units per second ("537982867"), or as it is when too large or not finite.
    static func rate(_ lambda: Double) -> String {
        lambda.isFinite && abs(lambda) < 1e15 ? String(Int(lambda.rounded())) : "\(lambda)"
    }

    /// "non-finite a, b" for the named values that are not finite; nil when all are.
    static func nonFinite(_ values: KeyValuePairs<String, Double>) -> String? {
        let names = values.filter { !$0.value.isFinite }.map(\.key)
        return names.isEmpty ? nil : "non-finite " + names.joined(separator: ", ")
    }
}

/// Where a simulated board reports its plant's divergence for the run that owns the thread
/// (`poise simulate`, one Monte-Carlo trial): bind one with
/// `SimulationWatch.$current.withValue(watch) { … LoopRunner.run … }` and read it after.
///
/// A task-local value, so concurrent trials on their own threads each see their own. It
/// carries what the loop's report (PoiseLoop's `SimulationReport`) cannot yet: the plant's
/// own account of when and why it broke down.
public final class SimulationWatch: Sendable {
    @TaskLocal public static var current: SimulationWatch?

    let state = Mutex<PlantDivergence?>(nil)

    public init() {}

    /// The first divergence reported, nil while the plant held together.
    public var divergence: PlantDivergence? { state.withLock { $0 } }

    /// Keeps the first report (later ones follow from it).
    public func report(_ divergence: PlantDivergence) {
        state.withLock { if $0 == nil { $0 = divergence } }
    }

    let reversals = Atomic<Int>(0)

    /// Times a wheel's drive changed direction so far in the run, both wheels together (an
    /// atomic: the simulated board reports each change without a lock).
    public var driveReversals: Int { reversals.load(ordering: .relaxed) }

    public func report(driveReversals count: Int) {
        reversals.store(count, ordering: .relaxed)
    }
}
