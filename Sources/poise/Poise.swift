import ArgumentParser

/// The version `poise --version` prints.
let poiseVersion = "0.1.0"

/// `poise`: ArgumentParser's own `main` parses, validates and runs the subcommand; each
/// subcommand's `run()` ends in `CommandOutcome`, so every command ends the same way.
@main
struct Poise: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poise",
        abstract: "Attitude estimation and control for an MPU-9250 on a Linux board.",
        discussion: """
            Start with `poise synth` to make a trace with exact ground truth, `poise replay` to \
            run a filter over it, `poise eval` to score the estimate and `poise plot` to look at \
            it. `poise probe` checks the wiring of a real board; `poise check` a config file; \
            `poise safe` drives every configured output to its safe value.
            """,
        version: poiseVersion,
        subcommands: [
            CheckCommand.self,
            SynthCommand.self,
            ReplayCommand.self,
            CompileCommand.self,
            MergeParametersCommand.self,
            EvalCommand.self,
            ConvertCommand.self,
            PlotCommand.self,
            SpectrumCommand.self,
            ProbeCommand.self,
            GamepadCommand.self,
            CalibrateCommand.self,
            SafeCommand.self,
            PlayCommand.self,
            ViewCommand.self,
            RunCommand.self,
            SimulateCommand.self,
            TuneCommand.self,
            RecordCommand.self,
            HelpTopicCommand.self,
            UnknownCommand.self,
        ],
        defaultSubcommand: UnknownCommand.self)
}
