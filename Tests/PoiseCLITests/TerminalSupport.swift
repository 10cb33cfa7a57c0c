import Foundation

/// What a program wrote to a terminal, and to its standard output (a file).
struct TerminalRun {
    var status: Int32
    /// Everything written to the terminal (standard error), escapes included.
    var terminal: String
    var output: String
}

/// Runs the built `poise ARGUMENTS` with standard error on a pseudo-terminal `columns` wide (as
/// a user's shell window), standard output to a file. With `interruptAfter`, SIGINT is sent
/// once the terminal shows that text (a state, not a time); the child is then waited for.
/// With `hangUpAfter`, SIGHUP is sent once the terminal shows that text.
/// The terminal is driven by python3's pty module (Foundation has no pty).
func poiseInTerminal(_ arguments: [String], columns: Int, interruptAfter: String? = nil, hangUpAfter: String? = nil,
                     environment extra: [String: String] = [:]) throws -> TerminalRun {
    let directory = try temporaryDirectory()
    let script = directory.appending(path: "terminal.py")
    try """
    fcntl, os, pty, signal, struct, subprocess, sys, termios = map(__import__, "fcntl os pty signal struct subprocess sys termios".split())
    columns, trigger, hang_up, out_path, term_path = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3].encode(), sys.argv[4], sys.argv[5]
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    with open(out_path, "wb") as out:
        child = subprocess.Popen(sys.argv[6:], stdin=subprocess.DEVNULL, stdout=out, stderr=slave, close_fds=True)
    os.close(slave)
    seen, sent, hung_up = b"", False, False
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        if hang_up and not hung_up and hang_up in seen:
            child.send_signal(signal.SIGHUP)
            hung_up = True
        if trigger and not sent and trigger in seen:
            child.send_signal(signal.SIGINT)
            sent = True
    status = child.wait()
    open(term_path, "wb").write(seen)
    sys.exit(128 - status if status < 0 else status)
    """.write(to: script, atomically: true, encoding: .utf8)
    let outPath = directory.appending(path: "stdout").path, termPath = directory.appending(path: "terminal").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, String(columns), interruptAfter ?? "", hangUpAfter ?? "", outPath, termPath, poisePath] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "COLUMNS")
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return TerminalRun(status: process.terminationStatus,
                       terminal: (try? String(contentsOfFile: termPath, encoding: .utf8)) ?? "",
                       output: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "")
}
