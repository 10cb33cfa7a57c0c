#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Runs the built `poise` binary (`swift test` builds it first).
@Suite struct ConvertCommandTests {
    static let repository: String = {
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }
        return root
    }()

    static var poise: String { repository + "/.build/debug/poise" }

    static func directory() -> String {
        let parent = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(parent)/poise-convert-XXXXXX".utf8CString)
        _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func write(_ text: String, to path: String) {
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
    }

    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func removeAll(_ directory: String) {
        _ = system("rm -rf '\(directory)'")
    }

    /// Runs `poise arguments…`; returns the exit status and standard error.
    static func run(_ arguments: [String], in directory: String) -> (status: Int32, stderr: String) {
        let quoted = arguments.map { "'" + $0 + "'" }.joined(separator: " ")
        let status = system("cd '\(directory)' && '\(poise)' \(quoted) 2> stderr.txt")
        let code = (status >> 8) & 0xFF
        return (code, read(directory + "/stderr.txt") ?? "")
    }

    static let messy = """
        # source=test trial=cli rate_hz=100
        # free comment, kept verbatim
        gz,t,ax,ay,az,gx,gy,mx,my,mz,temperature,qw,qx,qy,qz\r
        0.30,0,1,2,9.81,0.1,0.2,,,,21.5,1,0,0,0\r
        -1e-3,0.01,1.25,-2,9.8,1.000,0.2,10,20,30,,0.7071068,0.7071068,0,0\r
        3.4028235e38,0.02,1.4e-45,-0,9.8,0.1,0.2,10,20,30,-0.000125,,,,\r

        """

    @Test func csvToBinaryToCSVIsByteIdentical() throws {
        let dir = Self.directory()
        defer { Self.removeAll(dir) }
        Self.write(Self.messy, to: dir + "/messy.csv")
        #expect(Self.run(["convert", "messy.csv", "normal.csv"], in: dir).status == 0)
        let (status, stderr) = Self.run(["convert", "normal.csv", "trace.ptrace"], in: dir)
        #expect(status == 0)
        #expect(stderr == "poise: wrote 3 samples to trace.ptrace (binary)\n")
        #expect(Self.run(["convert", "trace.ptrace", "back.csv"], in: dir).status == 0)
        #expect(Self.run(["convert", "trace.ptrace", "again.bin", "--to", "binary"], in: dir).status == 0)
        let normal = try #require(Self.read(dir + "/normal.csv"))
        #expect(Self.read(dir + "/back.csv") == normal)
        #expect(Self.read(dir + "/trace.ptrace") == Self.read(dir + "/again.bin"))
        #expect(normal == """
            # source=test trial=cli rate_hz=100
            # free comment, kept verbatim
            gz,t,ax,ay,az,gx,gy,mx,my,mz,temperature,qw,qx,qy,qz
            0.3,0.0,1.0,2.0,9.81,0.1,0.2,,,,21.5,1.0,0.0,0.0,0.0
            -0.001,0.01,1.25,-2.0,9.8,1.0,0.2,10.0,20.0,30.0,,0.7071068,0.7071068,0.0,0.0
            3.4028235e+38,0.02,1e-45,-0.0,9.8,0.1,0.2,10.0,20.0,30.0,-0.000125,,,,

            """)
        #expect(Self.read(dir + "/back.csv.tmp") == nil)
    }

    @Test func errorsArePositionedAndLeaveNoOutput() {
        let dir = Self.directory()
        defer { Self.removeAll(dir) }
        Self.write("t,ax,ay,az,gx,gy,gz\n0,1,2,3,4,5,6\n1,1,2,x,4,5,6\n", to: dir + "/bad.csv")
        let (status, stderr) = Self.run(["convert", "bad.csv", "out.ptrace"], in: dir)
        #expect(status == 1)
        #expect(stderr == "poise: bad.csv:3:7: expected a number in column 'az', found 'x'\n")
        #expect(Self.read(dir + "/out.ptrace") == nil)
        #expect(Self.read(dir + "/out.ptrace.tmp") == nil)
    }

    @Test func textColumnsCannotGoIntoBinary() {
        let dir = Self.directory()
        defer { Self.removeAll(dir) }
        Self.write("t,ax,ay,az,gx,gy,gz,label\n0,1,2,3,4,5,6,walk\n", to: dir + "/label.csv")
        let (status, stderr) = Self.run(["convert", "label.csv", "out.ptrace"], in: dir)
        #expect(status == 1)
        #expect(stderr == "poise: label.csv:2:15: column 'label' is not numeric; binary traces hold numbers only\n")
        // Text to text keeps it.
        #expect(Self.run(["convert", "label.csv", "copy.csv"], in: dir).status == 0)
        #expect(Self.read(dir + "/copy.csv") == "t,ax,ay,az,gx,gy,gz,label\n0.0,1.0,2.0,3.0,4.0,5.0,6.0,walk\n")
    }

    @Test func standardInputAndOutput() throws {
        let dir = Self.directory()
        defer { Self.removeAll(dir) }
        Self.write(Self.messy, to: dir + "/messy.csv")
        #expect(Self.run(["convert", "messy.csv", "normal.csv"], in: dir).status == 0)
        let status = system("cd '\(dir)' && '\(Self.poise)' convert - - --to binary < normal.csv | '\(Self.poise)' convert - piped.csv")
        #expect(status == 0)
        let normal = try #require(Self.read(dir + "/normal.csv"))
        #expect(Self.read(dir + "/piped.csv") == normal)
    }

    @Test func unknownOutputExtensionNeedsTo() {
        let dir = Self.directory()
        defer { Self.removeAll(dir) }
        Self.write("t,ax,ay,az,gx,gy,gz\n", to: dir + "/empty.csv")
        let (status, stderr) = Self.run(["convert", "empty.csv", "out.dat"], in: dir)
        #expect(status == 1)
        #expect(stderr == "poise: out.dat: cannot tell the output format from the name; use --to csv or --to binary\n")
        #expect(Self.run(["convert", "empty.csv", "out.dat", "--to", "binary"], in: dir).status == 0)
    }
}
