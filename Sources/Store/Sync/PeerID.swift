/// A peer's identity: the SHA-256 of its DER certificate.
///
/// Printed as 56 base-32 characters in eight dash-separated groups of seven, where every
/// fourteenth character is a Luhn mod-32 check over the thirteen before it, so that a typo
/// made while copying an ID between people is caught instead of dialing a stranger.
public struct PeerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The digest as four big-endian words, kept inline: a stamp carries a peer ID for every
    /// field of every change, and an array there cost a heap buffer, its reference counting
    /// and a pointer chase for each comparison and hash.
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// The 32 digest bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in [words.0, words.1, words.2, words.3] {
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return out
    }

    /// The first 8 digest bytes as a big-endian integer, without building the byte array
    /// (relaying ranks members by it for every set it passes on).
    public var leadingWord: UInt64 { words.0 }

    /// Wraps a 32-byte SHA-256 digest.
    public init?(digest: [UInt8]) {
        guard digest.count == 32 else { return nil }
        func word(_ at: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(digest[at + $1]) }
        }
        words = (word(0), word(8), word(16), word(24))
    }

    /// Parses the printed form; dashes, spaces and letter case are ignored.
    public init(parsing text: String) throws(PeerIDError) {
        // Works on ASCII bytes: IDs are parsed for every participant row read, and the
        // Character-by-Character form cost a participant a tenth of its CPU.
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(56)
        for byte in text.utf8 where byte != UInt8(ascii: "-") && byte != UInt8(ascii: " ") {
            guard byte < 0x80 else {
                self = try PeerID(parsingUnicode: text)
                return
            }
            cleaned.append(byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte)
        }
        guard cleaned.count == 56 else { throw .wrongLength(cleaned.count) }
        var values: [Int] = []
        values.reserveCapacity(52)
        for group in 0..<4 {
            let start = group * 14
            for byte in cleaned[start..<(start + 13)] {
                guard let value = Base32.value(ofASCII: byte) else {
                    throw .invalidCharacter(Character(Unicode.Scalar(byte)))
                }
                values.append(value)
            }
            let check = cleaned[start + 13]
            guard let checkValue = Base32.value(ofASCII: check) else {
                throw .invalidCharacter(Character(Unicode.Scalar(check)))
            }
            guard Base32.luhnCheck(values[(group * 13)...]) == checkValue else {
                throw .checkFailed(group: group + 1)
            }
        }
        self = PeerID(digest: Array(Base32.decode(values).prefix(32)))!
    }

    /// Text with letters outside ASCII: upper-cased as Unicode does (which may change its
    /// length), then refused for the character that cannot be in an ID, or its length.
    private init(parsingUnicode text: String) throws(PeerIDError) {
        let cleaned = Array(text.uppercased().filter { $0 != "-" && $0 != " " })
        guard cleaned.count == 56 else { throw .wrongLength(cleaned.count) }
        guard let other = cleaned.first(where: { $0.asciiValue == nil }) else {
            self = try PeerID(parsing: String(cleaned))
            return
        }
        throw .invalidCharacter(other)
    }

    /// The printable, copy-paste friendly form.
    public var description: String {
        let body = Base32.encode(bytes)  // 52 values
        var out: [UInt8] = []
        out.reserveCapacity(63)
        var written = 0
        func put(_ value: Int) {
            if written > 0 && written % 7 == 0 { out.append(UInt8(ascii: "-")) }
            out.append(Base32.alphabet[value])
            written += 1
        }
        for group in 0..<4 {
            let chunk = body[(group * 13)..<(group * 13 + 13)]
            for value in chunk { put(value) }
            put(Base32.luhnCheck(chunk))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first seven characters: enough for people to tell peers apart in logs.
    public var short: String { String(description.prefix(7)) }

    /// The four words (peer IDs are hashed for every field of every applied change).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    public static func == (a: PeerID, b: PeerID) -> Bool { a.words == b.words }

    /// The order of the digest bytes (big-endian words compare as their bytes do).
    public static func < (a: PeerID, b: PeerID) -> Bool {
        (a.words.0, a.words.1, a.words.2, a.words.3) < (b.words.0, b.words.1, b.words.2, b.words.3)
    }
}

/// Why a printed peer ID was refused.
public enum PeerIDError: Error, Equatable, CustomStringConvertible {
    case wrongLength(Int)
    case invalidCharacter(Character)
    case checkFailed(group: Int)

    public var description: String {
        switch self {
        case .wrongLength(let n):
            return "a peer ID has 56 characters (without dashes), this one has \(n): copy the whole ID"
        case .invalidCharacter(let c):
            return "'\(c)' cannot appear in a peer ID (letters A–Z and digits 2–7 only)"
        case .checkFailed(let group):
            return "peer ID check failed in its part \(group): a character was mistyped; copy the ID again"
        }
    }
}

/// RFC 4648 base-32 without padding, plus the Luhn mod-32 check character, on the values
/// 0…31 of the characters (`alphabet` spells them).
enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// The value of an upper-case base-32 character, nil for any other byte.
    static func value(ofASCII byte: UInt8) -> Int? {
        switch byte {
        case 65...90: return Int(byte - 65)
        case 50...55: return Int(byte - 50) + 26
        default: return nil
        }
    }

    /// The values of `bytes`, five bits each (the last one padded with zeros).
    static func encode(_ bytes: [UInt8]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = ((buffer << 8) | Int(byte)) & 0xFFFF
            bits += 8
            while bits >= 5 {
                out.append((buffer >> (bits - 5)) & 31)
                bits -= 5
            }
        }
        if bits > 0 { out.append((buffer << (5 - bits)) & 31) }
        return out
    }

    static func decode(_ values: [Int]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 5 / 8)
        var buffer = 0
        var bits = 0
        for value in values {
            buffer = ((buffer << 5) | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return out
    }

    /// Luhn mod N over the base-32 values, so a single mistyped character or a swap of two
    /// adjacent ones changes the check.
    static func luhnCheck(_ values: ArraySlice<Int>) -> Int {
        let n = 32
        var factor = 1
        var sum = 0
        for value in values.reversed() {
            var addend = factor * value
            factor = factor == 2 ? 1 : 2
            addend = addend / n + addend % n
            sum += addend
        }
        return (n - sum % n) % n
    }
}
