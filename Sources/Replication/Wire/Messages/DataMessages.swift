extension MessageType {
    /// Asks for a range of a photo's data.
    public static let dataRequest = MessageType(rawValue: 0x06)
    /// A range of a photo's data.
    public static let dataChunk = MessageType(rawValue: 0x07)
    /// A data request could not be served.
    public static let dataError = MessageType(rawValue: 0x08)
    /// Data answered `unavailable` earlier has arrived at the sender.
    public static let dataAvailable = MessageType(rawValue: 0x09)
}

/// Asks for `length` bytes of the photo data with `hash`, from byte `offset`.
///
/// Answered by exactly one `DataChunk` or `DataError`, in request order. The requester keeps
/// only a few requests outstanding, which bounds the memory both sides spend on a photo of
/// any size.
///
///     hash (32) | offset: u64 | length: u32 (1 … max chunk)
public struct DataRequest: WireMessage, Hashable {
    public static let type = MessageType.dataRequest
    public static let name = "data request"

    public var hash: ContentHash
    public var offset: UInt64
    public var length: UInt32

    public init(hash: ContentHash, offset: UInt64, length: UInt32) {
        self.hash = hash
        self.offset = offset
        self.length = length
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(hash)
        writer.write(offset)
        writer.write(length)
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        hash = try reader.readContentHash("hash")
        offset = try reader.readUInt64("offset")
        length = try reader.readUInt32("length")
        guard length > 0, Int(length) <= limits.maxChunkBytes else {
            throw .fieldTooLarge(
                field: "requested length", length: Int(length), maximum: limits.maxChunkBytes)
        }
    }
}

/// Bytes of a photo's data from `offset`; `final` is set when they reach the end of the data.
///
/// A chunk is never longer than the request it answers; it is shorter only when the data
/// ends first (then `final` is set).
///
///     hash (32) | offset: u64 | final: bool | bytes
public struct DataChunk: WireMessage {
    public static let type = MessageType.dataChunk
    public static let name = "data chunk"

    public var hash: ContentHash
    public var offset: UInt64
    public var isFinal: Bool
    /// A view into the received frame's payload (the data is never copied on its way from
    /// the socket to the partial file).
    public var bytes: ArraySlice<UInt8>

    public var encodedSizeHint: Int { 45 + bytes.count }

    public init(hash: ContentHash, offset: UInt64, isFinal: Bool, bytes: ArraySlice<UInt8>) {
        self.hash = hash
        self.offset = offset
        self.isFinal = isFinal
        self.bytes = bytes
    }

    public init(hash: ContentHash, offset: UInt64, isFinal: Bool, bytes: [UInt8]) {
        self.init(hash: hash, offset: offset, isFinal: isFinal, bytes: bytes[...])
    }

    public func encode(into writer: inout BinaryWriter) {
        writeFields(into: &writer)
        writer.writeFixed(bytes)
    }

    /// The fields before the data; the data goes as the frame's tail, not copied.
    public func frame() -> Frame {
        var writer = BinaryWriter(capacity: 45)
        writeFields(into: &writer)
        return Frame(type: Self.type, payload: writer.bytes, tail: bytes)
    }

    private func writeFields(into writer: inout BinaryWriter) {
        writer.write(hash)
        writer.write(offset)
        writer.write(isFinal)
        writer.write(UInt32(bytes.count))
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        hash = try reader.readContentHash("hash")
        offset = try reader.readUInt64("offset")
        isFinal = try reader.readBool("final")
        bytes = try reader.readLengthPrefixedSlice("chunk", maximum: limits.maxChunkBytes)
    }
}

/// Why a data request was not served. Unknown codes are kept, and treated as failures.
public struct DataErrorReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// No photo with this data in a zone the requester shares with the sender. (A hash the
    /// sender holds for other people is answered the same way, so nothing leaks.)
    public static let unknown = DataErrorReason(rawValue: 1)
    /// The photo is shared, but its data has not reached the sender yet; a `DataAvailable`
    /// follows when it does.
    public static let unavailable = DataErrorReason(rawValue: 2)
    /// The offset lies past the end of the data.
    public static let badRange = DataErrorReason(rawValue: 3)
    /// The sender could not read its copy.
    public static let readFailed = DataErrorReason(rawValue: 4)

    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .unavailable: return "unavailable"
        case .badRange: return "bad range"
        case .readFailed: return "read failed"
        default: return "reason \(rawValue)"
        }
    }
}

/// A data request could not be served.
///
///     hash (32) | reason: u8 | message: string
public struct DataError: WireMessage {
    public static let type = MessageType.dataError
    public static let name = "data error"

    public var hash: ContentHash
    public var reason: DataErrorReason
    public var message: String

    public init(hash: ContentHash, reason: DataErrorReason, message: String) {
        self.hash = hash
        self.reason = reason
        self.message = message
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(hash)
        writer.write(reason.rawValue)
        writer.write(message)
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        hash = try reader.readContentHash("hash")
        reason = DataErrorReason(rawValue: try reader.readUInt8("reason"))
        message = try reader.readString("message", maximumBytes: limits.maxReasonBytes)
    }
}

/// Data the sender answered `unavailable` for has now arrived there: ask again.
///
///     hash (32)
public struct DataAvailable: WireMessage {
    public static let type = MessageType.dataAvailable
    public static let name = "data available"

    public var hash: ContentHash

    public init(hash: ContentHash) {
        self.hash = hash
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(hash)
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        hash = try reader.readContentHash("hash")
    }
}
