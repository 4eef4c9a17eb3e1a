import Support

extension MessageType {
    /// Where the sender listens for peers (sent after the hello when both sides have
    /// `Capabilities.addresses`).
    public static let addresses = MessageType(rawValue: 0x0D)
}

extension Capabilities {
    /// The sender tells the peer where it listens (`Addresses`), so that either side may
    /// dial the other: the owner of a share dials its participants as they dial it.
    public static let addresses = Capabilities(rawValue: 1 << 0)
}

/// The addresses the sender listens at for peers, best first: its advertised addresses.
///
/// Sent once right after the hello, on every connection (a short joining connection too),
/// when both hellos announce `Capabilities.addresses`. A host that is a wildcard
/// (`0.0.0.0`, `::`) means "the address you see me connect from", with that port.
///
///     count: u8 (1 … max addresses) | count × (host: string (≤ max host bytes) | port: u16 > 0)
public struct Addresses: WireMessage {
    public static let type = MessageType.addresses
    public static let name = "addresses"

    public var addresses: [PeerAddress]

    public init(_ addresses: [PeerAddress]) {
        self.addresses = addresses
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(UInt8(addresses.count))
        for address in addresses {
            writer.write(address.host)
            writer.write(address.port)
        }
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        let count = Int(try reader.readUInt8("address count"))
        guard count > 0 else { throw .invalidValue(field: "address count", reason: "no address given") }
        guard count <= limits.maxAddresses else {
            throw .fieldTooLarge(field: "address count", length: count, maximum: limits.maxAddresses)
        }
        addresses = []
        for _ in 0..<count {
            let host = try reader.readString("host", maximumBytes: limits.maxHostBytes)
            let port = try reader.readUInt16("port")
            let address = PeerAddress(host: host, port: port)
            guard port > 0, PeerAddress.isPlausibleHost(host) else {
                throw .invalidValue(field: "address", reason: "'\(address)' is not HOST:PORT")
            }
            addresses.append(address)
        }
    }

    public var encodedSizeHint: Int { 1 + addresses.count * 40 }
}
