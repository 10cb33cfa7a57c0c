import ArgumentParser

@main
struct Poise: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poise",
        abstract: "Attitude estimation and control for an MPU-9250 on a Linux board.",
        subcommands: [
            ProbeCommand.self,
            CalibrateCommand.self,
        ])
}
