import Store

/// Builds a message payload: big-endian integers, fixed byte runs, and length-prefixed
/// bytes and strings. The counterpart of `BinaryReader`; message codecs use the pair so
/// that every field is written and read the same way.
public struct BinaryWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func write(_ value: UInt8) {
        bytes.append(value)
    }

    public mutating func write(_ value: UInt16) { appendBigEndian(value) }
    public mutating func write(_ value: UInt32) { appendBigEndian(value) }
    public mutating func write(_ value: UInt64) { appendBigEndian(value) }
    /// Two's complement, big-endian.
    public mutating func write(_ value: Int64) { appendBigEndian(UInt64(bitPattern: value)) }

    public mutating func write(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    /// Bytes whose length both sides know (digests, UUIDs): no prefix.
    public mutating func writeFixed(_ raw: some Collection<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// The 32 digest bytes of a peer ID.
    public mutating func write(_ peer: PeerID) {
        bytes.append(contentsOf: peer.bytes)
    }

    /// A 32-bit big-endian length, then the bytes.
    public mutating func writeLengthPrefixed(_ raw: some Collection<UInt8>) {
        precondition(raw.count <= Int(UInt32.max), "a field is at most 4 GiB")
        write(UInt32(raw.count))
        bytes.append(contentsOf: raw)
    }

    /// A 32-bit big-endian length, then the UTF-8 bytes.
    public mutating func write(_ text: String) {
        writeLengthPrefixed(Array(text.utf8))
    }

    private mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
