import Store

/// Reads a message payload field by field, refusing to read past its end.
///
/// Every read is bounds-checked and throws `WireError.truncated` naming the field, and
/// length prefixes are checked against both the bytes left and a caller-given maximum
/// before anything is copied, so a lying length costs nothing.
public struct BinaryReader: Sendable {
    private let bytes: [UInt8]
    /// Index of the next unread byte.
    public private(set) var offset = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset == bytes.count }

    public mutating func readUInt8(_ field: String) throws(WireError) -> UInt8 {
        try need(1, field)
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func readUInt16(_ field: String) throws(WireError) -> UInt16 {
        try readBigEndian(field)
    }

    public mutating func readUInt32(_ field: String) throws(WireError) -> UInt32 {
        try readBigEndian(field)
    }

    public mutating func readUInt64(_ field: String) throws(WireError) -> UInt64 {
        try readBigEndian(field)
    }

    public mutating func readInt64(_ field: String) throws(WireError) -> Int64 {
        Int64(bitPattern: try readBigEndian(field))
    }

    /// One byte that must be 0 or 1.
    public mutating func readBool(_ field: String) throws(WireError) -> Bool {
        switch try readUInt8(field) {
        case 0: return false
        case 1: return true
        case let other: throw .invalidValue(field: field, reason: "\(other) is not a boolean (0 or 1)")
        }
    }

    /// Exactly `count` bytes.
    public mutating func readFixed(_ count: Int, _ field: String) throws(WireError) -> [UInt8] {
        Array(try readSlice(count, field))
    }

    /// Like `readFixed`, sharing the payload's storage instead of copying (bulk data).
    public mutating func readSlice(_ count: Int, _ field: String) throws(WireError) -> ArraySlice<UInt8> {
        try need(count, field)
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    public mutating func readPeerID(_ field: String) throws(WireError) -> PeerID {
        PeerID(digest: try readFixed(32, field))!
    }

    /// A 32-bit length, checked against `maximum` and the bytes left, then that many bytes.
    public mutating func readLengthPrefixed(_ field: String, maximum: Int) throws(WireError) -> [UInt8] {
        Array(try readLengthPrefixedSlice(field, maximum: maximum))
    }

    /// `count` length-prefixed byte strings of at most `maximumBytes` each, once `count` (read
    /// by the caller as `countField`) is checked against `maximumCount`.
    public mutating func readLengthPrefixedList(
        _ field: String, count: Int, countField: String, maximumCount: Int, maximumBytes: Int
    ) throws(WireError) -> [[UInt8]] {
        guard count <= maximumCount else {
            throw .fieldTooLarge(field: countField, length: count, maximum: maximumCount)
        }
        var items: [[UInt8]] = []
        for _ in 0..<count { items.append(try readLengthPrefixed(field, maximum: maximumBytes)) }
        return items
    }

    /// Like `readLengthPrefixed`, sharing the payload's storage instead of copying.
    public mutating func readLengthPrefixedSlice(_ field: String, maximum: Int) throws(WireError)
        -> ArraySlice<UInt8>
    {
        // The length's own name is spelled out only for the error: this runs for every string
        // of every change received.
        guard remaining >= 4 else {
            throw .truncated(field: field + " length", needed: 4, remaining: remaining)
        }
        let length = Int(try readUInt32(field))
        guard length <= maximum else { throw .fieldTooLarge(field: field, length: length, maximum: maximum) }
        return try readSlice(length, field)
    }

    /// A length-prefixed UTF-8 string of at most `maximumBytes` bytes.
    public mutating func readString(_ field: String, maximumBytes: Int) throws(WireError) -> String {
        let raw = try readLengthPrefixedSlice(field, maximum: maximumBytes)
        guard let text = String(validating: raw, as: UTF8.self) else {
            throw .invalidValue(field: field, reason: "not valid UTF-8")
        }
        return text
    }

    /// Throws when bytes are left: a message must be read exactly.
    public func expectEnd(of message: String) throws(WireError) {
        if remaining > 0 { throw .trailingBytes(message: message, count: remaining) }
    }

    private mutating func readBigEndian<T: FixedWidthInteger>(_ field: String) throws(WireError) -> T {
        let size = MemoryLayout<T>.size
        try need(size, field)
        var value: T = 0
        for index in offset..<(offset + size) {
            value = value << 8 | T(bytes[index])
        }
        offset += size
        return value
    }

    private func need(_ count: Int, _ field: String) throws(WireError) {
        guard count >= 0, count <= remaining else {
            throw .truncated(field: field, needed: count, remaining: remaining)
        }
    }
}
