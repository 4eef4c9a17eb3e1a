import Store

/// Optional protocol features, one bit each, announced in the hello; a feature is used on a
/// connection only when both sides set its bit. Unknown bits are ignored, so a newer peer
/// can announce features an older one has never heard of.
public struct Capabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }
}

/// The version handshake: the first frame each side sends after TLS.
///
/// It lets two builds of PeerShare find a protocol version both speak (or refuse clearly),
/// agree on optional features, and confirm that the wire-level sender is the peer TLS
/// authenticated. Payload layout, all integers big-endian:
///
///     magic "PSHR" (4) | version (2) | peer ID (32) | capabilities (8)
///     [| largest frame accepted (4) [| purpose (1)]] [| later fields]
///
/// Fields after the capabilities are optional and appended in order; a receiver reads those
/// it knows and ignores the rest, so that later versions can append fields. The largest frame
/// the sender accepts tells the receiver how big the frames it sends may be (absent: the
/// first version's 16 MiB). The purpose says what the connection is for; a hello without
/// one comes from the previous release, which marked a guest with `Capabilities.joining`.
public struct Hello: Equatable, Sendable {
    /// "PSHR": tells a PeerShare hello from anything else that might reach the port.
    public static let magic: [UInt8] = Array("PSHR".utf8)
    /// The version this build speaks best.
    public static let currentVersion: UInt16 = 1
    /// Every version this build can speak.
    public static let supportedVersions: ClosedRange<UInt16> = 1...1
    /// Size of the fields this version reads.
    public static let encodedSize = 4 + 2 + 32 + 8

    /// The highest version the sender speaks (it also speaks every lower supported one).
    public var version: UInt16
    public var peerID: PeerID
    public var capabilities: Capabilities
    /// The largest frame body the sender accepts; nil when it does not say (the default).
    public var maximumFrameSize: Int?
    /// What the connection is for; nil when the sender does not say (the previous release).
    public var purpose: HelloPurpose?

    public init(
        version: UInt16 = Hello.currentVersion, peerID: PeerID, capabilities: Capabilities = [],
        maximumFrameSize: Int? = nil, purpose: HelloPurpose? = nil
    ) {
        self.version = version
        self.peerID = peerID
        self.capabilities = capabilities
        self.maximumFrameSize = maximumFrameSize
        self.purpose = purpose
    }

    /// What the sender came for: its purpose, or, from a hello of the previous release
    /// (no purpose), `join` when it sets the `joining` bit and `sync` otherwise.
    public var statedPurpose: HelloPurpose {
        purpose ?? (capabilities.contains(.joining) ? .join : .sync)
    }

    public func encodedPayload() -> [UInt8] {
        var writer = BinaryWriter(capacity: Self.encodedSize + 5)
        writer.writeFixed(Self.magic)
        writer.write(version)
        writer.write(peerID)
        writer.write(capabilities.rawValue)
        // The purpose follows the largest frame, which is written (with its default when
        // not given) whenever a purpose is.
        if maximumFrameSize != nil || purpose != nil {
            writer.write(UInt32(clamping: maximumFrameSize ?? WireLimits.defaultMaximumFrameSize))
        }
        if let purpose { writer.write(purpose.rawValue) }
        return writer.bytes
    }

    public func frame() -> Frame {
        Frame(type: .hello, payload: encodedPayload())
    }

    public init(payload: [UInt8]) throws(WireError) {
        var reader = BinaryReader(payload)
        guard reader.remaining >= Self.magic.count,
            try reader.readFixed(Self.magic.count, "hello magic") == Self.magic
        else { throw .badMagic }
        version = try reader.readUInt16("hello version")
        peerID = try reader.readPeerID("hello peer ID")
        capabilities = Capabilities(rawValue: try reader.readUInt64("hello capabilities"))
        maximumFrameSize = reader.remaining >= 4 ? Int(try reader.readUInt32("hello largest frame")) : nil
        purpose = nil
        if maximumFrameSize != nil, reader.remaining >= 1 {
            purpose = HelloPurpose(rawValue: try reader.readUInt8("hello purpose"))
        }
    }

    /// Decodes a frame that must be a hello.
    public init(frame: Frame) throws(WireError) {
        guard frame.type == .hello else {
            throw .unexpectedMessage(type: frame.type.rawValue, expected: "hello")
        }
        try self.init(payload: frame.fullPayload)
    }
}
