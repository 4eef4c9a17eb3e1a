import Store
import Support

/// Where one device listens, as the device itself signed it: a version and up to
/// `MessageLimits.maxAddresses` addresses, with the device's certificate.
///
/// Why: a device that moves (a new port after a restart, another network) must be found
/// again by members that only ever met someone else. Any member may pass a record on
/// (gossip, LAN discovery), so it carries its own proof: the certificate, whose SHA-256 is
/// the device ID, and an Ed25519 signature by that certificate's key
/// (`AddressRecord+Signing`). A receiver keeps the highest version per device, which makes
/// a replayed older record worthless. This type is only the encoding; nothing here trusts it.
///
///     format: u8 (1) | device (32 bytes) | version: u64 | count: u8 (0 … max addresses)
///     | count × (host: string | port: u16 > 0) | signature (64 bytes) | certificate: bytes
public struct AddressRecord: Hashable, Sendable {
    public static let formatVersion: UInt8 = 1
    /// Bytes in the Ed25519 signature.
    public static let signatureSize = 64

    public let device: PeerID
    /// The device's wall-clock milliseconds when it made the record, strictly increasing
    /// per device: the newer record wins.
    public let version: UInt64
    /// Best first. Never a wildcard host.
    public let addresses: [PeerAddress]
    public let signature: [UInt8]
    /// The device's DER certificate, whose SHA-256 must be `device`.
    public let certificate: [UInt8]

    public init(
        device: PeerID, version: UInt64, addresses: [PeerAddress], signature: [UInt8], certificate: [UInt8]
    ) {
        self.device = device
        self.version = version
        self.addresses = addresses
        self.signature = signature
        self.certificate = certificate
    }

    /// The bytes the signature covers (after a domain tag).
    public var body: [UInt8] {
        Self.body(device: device, version: version, addresses: addresses)
    }

    static func body(device: PeerID, version: UInt64, addresses: [PeerAddress]) -> [UInt8] {
        var writer = BinaryWriter(capacity: 48 + addresses.count * 24)
        writer.write(formatVersion)
        writer.write(device)
        writer.write(version)
        writer.write(UInt8(addresses.count))
        for address in addresses {
            writer.write(address.host)
            writer.write(address.port)
        }
        return writer.bytes
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.writeFixed(body)
        writer.writeFixed(signature)
        writer.writeLengthPrefixed(certificate)
    }

    /// The whole record, as it travels.
    public var encoded: [UInt8] {
        var writer = BinaryWriter(capacity: encodedSizeHint)
        encode(into: &writer)
        return writer.bytes
    }

    public var encodedSizeHint: Int { 48 + addresses.count * 24 + Self.signatureSize + 4 + certificate.count }

    /// Reads one record; throws on a malformed one (a newer format included).
    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        let format = try reader.readUInt8("address record format")
        guard format == Self.formatVersion else {
            throw .invalidValue(field: "address record format", reason: "version \(format) is not known here")
        }
        device = try reader.readPeerID("address record device")
        version = try reader.readUInt64("address record version")
        let count = Int(try reader.readUInt8("address count"))
        guard count <= limits.maxAddresses else {
            throw .fieldTooLarge(field: "address count", length: count, maximum: limits.maxAddresses)
        }
        var addresses: [PeerAddress] = []
        for _ in 0..<count {
            let host = try reader.readString("host", maximumBytes: limits.maxHostBytes)
            let port = try reader.readUInt16("port")
            let address = PeerAddress(host: host, port: port)
            guard port > 0, PeerAddress.isPlausibleHost(host), !address.isWildcard else {
                throw .invalidValue(
                    field: "address", reason: "'\(address)' is not a HOST:PORT a peer can dial")
            }
            addresses.append(address)
        }
        self.addresses = addresses
        signature = try reader.readFixed(Self.signatureSize, "address record signature")
        certificate = try reader.readLengthPrefixed(
            "address record certificate", maximum: limits.maxCertificateBytes)
    }

    /// Decodes exactly one record from `bytes` (as a store keeps it).
    public init(decoding bytes: [UInt8], limits: MessageLimits = MessageLimits()) throws(WireError) {
        var reader = BinaryReader(bytes)
        try self.init(reading: &reader, limits: limits)
        try reader.expectEnd(of: "address record")
    }
}
