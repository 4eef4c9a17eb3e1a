/// The SHA-256 of a photo's data: 32 bytes on the wire, 64 lowercase hex digits in the store.
public struct ContentHash: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// Wraps 32 digest bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Parses 64 hex digits (either case); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var index = 0
        while index < 64 {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.bytes = bytes
    }

    /// A digest is uniformly random already: its first eight bytes make a good hash, and
    /// hashing all 32 one by one showed in profiles of bulk transfers.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine($0.loadUnaligned(as: UInt64.self)) }
    }

    /// The store's form: 64 lowercase hex digits.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first 12 hex digits: enough to tell photos apart in logs.
    public var short: String { String(hex.prefix(12)) }

    public var description: String { hex }

    public static func < (a: ContentHash, b: ContentHash) -> Bool {
        a.bytes.lexicographicallyPrecedes(b.bytes)
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: return digit - 48
        case 97...102: return digit - 87
        case 65...70: return digit - 55
        default: return nil
        }
    }
}

extension BinaryWriter {
    /// The 32 digest bytes.
    public mutating func write(_ hash: ContentHash) {
        writeFixed(hash.bytes)
    }
}

extension BinaryReader {
    public mutating func readContentHash(_ field: String) throws(WireError) -> ContentHash {
        ContentHash(bytes: try readFixed(32, field))!
    }
}
