import ArgumentParser
import PoiseMath
import PoiseMotion
import PoiseReplay

// Option values with a fixed set of spellings: ArgumentParser refuses any other with its
// standard message listing them (exit 64) and lists them in the help.

extension OutputFrame: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { names }
    public var defaultValueDescription: String { name }
}

/// `--columns gravity,heading`: column groups of `poise replay`, comma-separated, or `all`.
struct ReplayColumnList: ExpressibleByArgument {
    var columns: [ReplayColumn] = []

    init() {}

    init?(argument: String) {
        guard let columns = try? ReplayColumn.parseList(argument) else { return nil }
        self.columns = columns
    }

    static var allValueStrings: [String] { ["all"] + ReplayColumn.allCases.map(\.rawValue) }
    var defaultValueDescription: String { columns.isEmpty ? "none" : columns.map(\.rawValue).joined(separator: ",") }
}

/// `--motion NAME`: a built-in motion of `poise synth`.
struct MotionPresetName: ExpressibleByArgument {
    var script: MotionScript

    init?(argument: String) {
        guard let script = MotionScript.preset(named: argument) else { return nil }
        self.script = script
    }

    static var allValueStrings: [String] { MotionScript.presetNames }
}

/// `--errors NAME`: a sensor error preset of `poise synth`.
struct ErrorPresetName: ExpressibleByArgument {
    var name: String

    init?(argument: String) {
        guard SensorErrorModel.preset(named: argument) != nil else { return nil }
        name = argument
    }

    init(_ name: String) { self.name = name }

    static var allValueStrings: [String] { SensorErrorModel.presetNames }
    var defaultValueDescription: String { name }
}
