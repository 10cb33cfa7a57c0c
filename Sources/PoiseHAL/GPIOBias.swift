/// A GPIO input line's bias, as libgpiod requests it (and `safety.switch.bias` names it): the
/// one type the configuration's resolved settings, the compiled file and the Linux backend share.
public enum GPIOBias: String, Sendable, CaseIterable {
    case asIs = "as_is"
    case disable
    case pullUp = "pull_up"
    case pullDown = "pull_down"
}
