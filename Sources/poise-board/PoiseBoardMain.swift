// `poise-board`: the board binary's entry point (docs/board.md). Everything it does is in
// PoiseBoard; this file only hands it the arguments, the one thing Embedded Swift and the
// host get differently.
import PoiseBoard

#if hasFeature(Embedded)
/// The C entry point: Embedded Swift has no `CommandLine`.
@_cdecl("main")
public func boardMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var arguments: [String] = []
    for index in 1..<max(1, Int(argc)) {
        if let argument = argv[index] { arguments.append(String(cString: argument)) }
    }
    BoardCommand.main(arguments)
}
#else
@main
struct PoiseBoardMain {
    static func main() {
        BoardCommand.main(Array(CommandLine.arguments.dropFirst()))
    }
}
#endif
