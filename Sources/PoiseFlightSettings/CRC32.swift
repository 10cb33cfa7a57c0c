/// CRC-32 as zlib, PNG and Ethernet compute it (reflected polynomial 0xEDB88320, initial and
/// final value 0xFFFFFFFF): `crc32("123456789") == 0xCBF43926`. Bitwise, no table: the files
/// it checks are a few kilobytes, read once.
public enum CRC32 {
    public static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 { checksum(bytes[...]) }
}
