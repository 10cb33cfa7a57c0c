extension MotionScript {
    /// Names of the built-in scripts, for `poise synth --motion NAME`.
    public static var presetNames: [String] { presetSources.map(\.name) }

    /// A built-in script by name (see ``presetNames``), or `nil`. The script's `name` is
    /// `preset:NAME`.
    public static func preset(named name: String) -> MotionScript? {
        guard let source = presetSource(named: name) else { return nil }
        // Presets are tested to parse; a failure here would be a bug in this file.
        return try? MotionScript(parsing: source, name: "preset:\(name)")
    }

    /// The text of a built-in script, useful as a starting point for your own.
    public static func presetSource(named name: String) -> String? {
        presetSources.first { $0.name == name.lowercased() }?.source
    }

    static let presetSources: [(name: String, source: String)] = [
        ("demo", """
            # A tour: still, a turn about each body axis and back, a shake, still. About 43 s.
            rest 5
            rotate x 90 deg over 2 s
            rest 1
            rotate x -90 deg over 2 s
            rest 1
            rotate y 90 deg over 2 s
            rest 1
            rotate y -90 deg over 2 s
            rest 1
            rotate z 180 deg over 3 s
            rest 1
            rotate z -180 deg over 3 s
            rest 1
            shake 3 s amplitude 3 m/s2 frequency 2 hz along 0.6,0.8,0
            rest 1
            wobble 4 s amplitude 10 deg frequency 1 hz about 0,0.6,0.8
            rest 5
            """),
        ("figure-eight", """
            # Sweeps left and right with the nose tilted up, then down, while the body
            # translates around two loops. About 39 s.
            rest 3
            repeat 4 {
              rotate x 20 deg over 0.5 s
              rotate z 90 deg over 1.5 s ; move y 0.3 m over 1 s ; rotate z -90 deg over 1.5 s
              rotate x -40 deg over 1 s
              rotate z -90 deg over 1.5 s ; move -y 0.3 m over 1 s ; rotate z 90 deg over 1.5 s
              rotate x 20 deg over 0.5 s
            }
            rest 3
            """),
        ("tumble", """
            # Fast rotations about oblique axes, spins and a fast wobble: hard for filters. About 20 s.
            rest 3
            spin 1,1,0 360 deg/s for 2 s
            rotate 0.3,-0.5,0.8 200 deg over 1 s
            spin z -720 deg/s for 1.5 s
            rotate x 180 deg over 0.8 s
            spin 0.6,0.8,0 540 deg/s for 1 s
            rotate -y 135 deg over 0.7 s
            wobble 3 s amplitude 20 deg frequency 3 hz about y
            rest 3
            """),
        ("translation", """
            # Translations and shakes with a fixed attitude: tests acceleration rejection. About 26 s.
            rest 3
            move x 0.5 m over 1 s ; move -x 0.5 m over 1 s
            move y 0.5 m over 0.8 s ; move -y 0.5 m over 0.8 s
            move z 0.3 m over 0.6 s ; move -z 0.3 m over 0.6 s
            shake 4 s amplitude 5 m/s2 frequency 3 hz along x
            shake 4 s amplitude 1 g frequency 1.5 hz along 0,0.6,0.8
            rest 3
            """),
        ("hand-strokes", """
            # A hand moving the sensor in strokes for 90 s: each a gentle push ended by a sharp
            # stop (3.5-5 g for a few tens of ms), then a smooth return, along tilted axes.
            # The large accelerations all point one way; their integral balances the push.
            rest 5
            rotate x 25 deg over 1 s
            rotate y -15 deg over 1 s
            strokes 30 s frequency 1.5 hz stop 4 g over 30 ms along 0.6,-0.7,0.3
            strokes 30 s frequency 2.4 hz stop 3.5 g over 25 ms along -0.3,0.8,0.5
            strokes 30 s frequency 1 hz stop 5 g over 30 ms along 0.7,0.2,-0.7
            rest 5
            """),
        ("arm-swing", """
            # The sensor 40 cm below a pivot: swung on an arc (tangential and centripetal
            # acceleration), then carried round a cone about the vertical. About 94 s.
            lever 0,0,-0.4 m
            rest 5
            wobble 40 s amplitude 45 deg frequency 0.7 hz about y
            rest 2
            rotate x 30 deg over 1 s
            spin 0,0.5,0.866 180 deg/s for 40 s
            rest 5
            """),
        ("robot-drive", """
            # A wheeled robot driving straight: smooth runs at 0.7-2 m/s² peaks, then runs that
            # speed up gently and brake hard (2 m/s²) before reversing. About 72 s.
            rest 5
            repeat 2 {
              move x 4 m over 4 s ; rest 1
              move -x 2 m over 4 s ; rest 1
              move x 4.2 m over 3.5 s ; rest 1
              move -x 6.4 m over 5 s ; rest 1
            }
            strokes 25 s frequency 0.2 hz stop 2 m/s2 over 1 s along x
            rest 5
            """),
        ("turn", """
            # A robot driving round a circle of 1.5 m radius at 1.5 m/s (1 rad/s): 1.5 m/s²
            # of centripetal acceleration for a minute, toward the centre. About 70 s.
            lever 0,-1.5,0 m
            rest 5
            spin z 1 rad/s for 60 s
            rest 5
            """),
        ("static", """
            # Holding still for a minute: bias and noise estimation.
            rest 60
            """),
    ]
}
