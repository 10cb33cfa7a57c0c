import PoiseConfig
import PoiseLoop

/// The spreads `poise simulate --trials N` draws from without `--spread`, one per plant
/// (`--print-spread` prints the one a configuration gets). Each is ordinary spread-file text,
/// read by ``SpreadParser`` like a user's, so its keys are checked against the schema.
/// Every trial also gets its own `simulation.seed`, so the chip's noise differs per trial.
public enum DefaultSpread {
    public static let balancingRobot = """
        # The built-in spread of the balancing robot (docs/simulation.md, Monte-Carlo).
        # Keys are configuration keys; each value says how a trial draws it:
        #   {relative: f}                ± f of the configuration's value, uniform
        #   {uniform: [low, high]}       uniform between the bounds
        #   {normal: {mean: m, sd: s}}   normal, cut to the key's allowed range
        # Each trial also draws its own simulation.seed (the chip's noise).
        simulation.initial_tilt_deg: {uniform: [-12, 12]}    # where it starts (arming wants within safety.arm_tilt_deg)

        """

    public static let quadrotor = """
        # The built-in spread of the quadrotor on its stand (docs/simulation.md, Monte-Carlo).
        # Keys are configuration keys; each value says how a trial draws it:
        #   {relative: f}                ± f of the configuration's value, uniform
        #   {uniform: [low, high]}       uniform between the bounds
        #   {normal: {mean: m, sd: s}}   normal, cut to the key's allowed range
        # Each trial also draws its own simulation.seed (the chip's noise).
        simulation.gust_torque: {relative: 0.3}              # the push about body x, ± 30 %
        simulation.gust_time: {uniform: [4, 6]}              # when it comes (s)

        """

    /// The name and text of the built-in spread for a configuration's plant.
    public static func text(for configuration: PoiseConfiguration) -> (name: String, text: String) {
        switch SimulatedRig.plant(configuration) {
        case .quadrotor: ("built-in quadrotor spread", quadrotor)
        default: ("built-in balancing-robot spread", balancingRobot)
        }
    }
}
