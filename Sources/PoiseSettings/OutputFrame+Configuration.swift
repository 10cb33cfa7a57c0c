import PoiseConfig
import PoiseMath

extension OutputFrame {
    /// The frame a configuration's `frame.output` names.
    public init(configuration frame: PoiseConfiguration.Frame) {
        self = OutputFrame(name: frame.output.rawValue) ?? .axes(.enu)
    }
}
