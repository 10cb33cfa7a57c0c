extension ConfigSchema {
    // A pilot's input devices. The keys are bound in PoiseConfiguration+Input.swift, beside the fields they set.

    static let inputGroups: [ConfigGroup] = [
        ConfigGroup("input", doc: "A pilot's input devices, read off the real-time thread."),
        ConfigGroup("input.gamepad", doc: "A gamepad through Linux evdev (see docs/gamepad.md): sticks → setpoints, buttons → arm and disarm."),
        ConfigGroup("input.sticks", doc: "What full stick means, for the ground station's MANUAL_CONTROL and the gamepad alike: read at start."),
    ]

    static let inputKeys: [ConfigKey] = PoiseConfiguration.Input.bindings.map(\.key)
}

extension ConfigSchema {
    static let inputRules: [ConfigRule] = [
        // Arming from a gamepad needs one; without it nothing could ever arm.
        ConfigRule(paths: ["safety.arm_source", "input.gamepad.device", "input.gamepad.name"]) { file, _ in
            guard file.string("safety.arm_source") == "gamepad", file.string("input.gamepad.device").isEmpty,
                  file.string("input.gamepad.name").isEmpty else { return nil }
            return "`gamepad` needs one: set input.gamepad.name (or input.gamepad.device), see docs/gamepad.md"
        },
        ConfigRule(paths: ["input.gamepad.device", "input.gamepad.name"]) { file, _ in
            guard !file.string("input.gamepad.device").isEmpty, !file.string("input.gamepad.name").isEmpty else { return nil }
            return "give the gamepad by input.gamepad.device or by input.gamepad.name, not both "
                + "(a name finds the pad again after a disconnect, when its event number may change)"
        },
        ConfigRule(paths: ["input.gamepad.arm_button", "input.gamepad.disarm_button"]) { file, _ in
            let arm = file.string("input.gamepad.arm_button")
            guard arm != "none", arm == file.string("input.gamepad.disarm_button") else { return nil }
            return "\(arm) is also the disarm_button: give them different buttons"
        },
    ]
}
