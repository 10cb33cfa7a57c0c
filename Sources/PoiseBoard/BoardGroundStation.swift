import PoiseLive
import PoiseTelemetry

/// The ground station's side of `poise-board run`: arming, disarming and the pilot's sticks,
/// answered as `poise run` answers them (PoiseLive's ``CommandArming``). Parameters are the
/// host's: the board lists none, and a PARAM_SET is answered with where to change it.
final class BoardGroundStation: GroundStation {
    let arming: CommandArming

    init(arming: CommandArming) { self.arming = arming }

    var parameterNames: [String] { [] }

    func parameterValue(at index: Int) -> Float { 0 }

    func setParameter(at index: Int, to value: Float) -> Result<Float, CommandRefusal> {
        .failure(CommandRefusal(Self.parametersOnTheHost))
    }

    func unknownParameter(_ name: String) -> String? { Self.parametersOnTheHost }

    func storeParameters() -> CommandOutcome { CommandOutcome(.unsupported, Self.parametersOnTheHost) }

    func arm(_ arm: Bool) -> CommandOutcome { arming.arm(arm) }

    func manualControl(_ message: ManualControlMessage) { arming.manualControl(message) }

    static let parametersOnTheHost = "poise-board takes its parameters from the compiled file: change the YAML on the host, "
        + "poise compile, copy it and reload (SIGHUP)"
}
