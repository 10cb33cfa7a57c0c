// What every MAVLink message type provides to the framing code.

/// A MAVLink message type from `common.xml`: its id, CRC_EXTRA, payload length and wire layout.
///
/// Wire order is the definition's order sorted by field size, largest first (stable), with
/// extension fields appended afterwards in definition order (they are not sorted and do not
/// enter CRC_EXTRA). Encoding writes the full payload; the framing truncates trailing zeros.
public protocol MAVLinkMessage: Sendable, Equatable {
    /// The message id (`<message id=…>`).
    static var id: UInt32 { get }
    /// The definition's checksum seed, folded into every frame's CRC.
    static var crcExtra: UInt8 { get }
    /// Payload length with every extension field, bytes.
    static var payloadLength: Int { get }
    /// Writes every field, wire order.
    func encode(into payload: inout MAVLinkPayloadWriter)
    /// Reads every field from a payload zero-extended to `payloadLength`.
    init(decoding payload: inout MAVLinkPayloadReader)
}
