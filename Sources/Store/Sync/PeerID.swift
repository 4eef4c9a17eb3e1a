/// A peer's identity: the SHA-256 of its DER certificate.
///
/// Printed as 56 base-32 characters in eight dash-separated groups of seven, where every
/// fourteenth character is a Luhn mod-32 check over the thirteen before it, so that a typo
/// made while copying an ID between people is caught instead of dialing a stranger.
public struct PeerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// Wraps a 32-byte SHA-256 digest.
    public init?(digest: [UInt8]) {
        guard digest.count == 32 else { return nil }
        self.bytes = digest
    }

    /// Parses the printed form; dashes, spaces and letter case are ignored.
    public init(parsing text: String) throws(PeerIDError) {
        let cleaned = text.uppercased().filter { $0 != "-" && $0 != " " }
        guard cleaned.count == 56 else { throw .wrongLength(cleaned.count) }
        let chars = Array(cleaned)
        var data = ""
        for group in 0..<4 {
            let body = String(chars[(group * 14)..<(group * 14 + 13)])
            let check = chars[group * 14 + 13]
            for ch in body where Base32.value(of: ch) == nil { throw .invalidCharacter(ch) }
            guard Base32.value(of: check) != nil else { throw .invalidCharacter(check) }
            guard Base32.luhnCheck(body) == check else { throw .checkFailed(group: group + 1) }
            data += body
        }
        guard let decoded = Base32.decode(data), let id = PeerID(digest: Array(decoded.prefix(32))) else {
            throw .wrongLength(cleaned.count)
        }
        self = id
    }

    /// The printable, copy-paste friendly form.
    public var description: String {
        let body = Array(Base32.encode(bytes))  // 52 characters
        var withChecks = ""
        for group in 0..<4 {
            let chunk = String(body[(group * 13)..<(group * 13 + 13)])
            withChecks += chunk
            withChecks.append(Base32.luhnCheck(chunk))
        }
        let all = Array(withChecks)
        return stride(from: 0, to: all.count, by: 7).map { String(all[$0..<($0 + 7)]) }
            .joined(separator: "-")
    }

    /// The first seven characters: enough for people to tell peers apart in logs.
    public var short: String { String(description.prefix(7)) }

    /// The 32 bytes in one go (the synthesized hash feeds them one at a time, and peer IDs
    /// are hashed for every field of every applied change).
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public static func == (a: PeerID, b: PeerID) -> Bool { a.bytes == b.bytes }

    public static func < (a: PeerID, b: PeerID) -> Bool {
        a.bytes.lexicographicallyPrecedes(b.bytes)
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

/// RFC 4648 base-32 without padding, plus the Luhn mod-32 check character.
enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    static func value(of ch: Character) -> Int? {
        guard let ascii = ch.asciiValue else { return nil }
        switch ascii {
        case 65...90: return Int(ascii - 65)
        case 50...55: return Int(ascii - 50) + 26
        default: return nil
        }
    }

    static func encode(_ bytes: [UInt8]) -> String {
        var out = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }

    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for ch in text {
            guard let v = value(of: ch) else { return nil }
            buffer = ((buffer << 5) | v) & 0xFFFF
            bits += 5
            if bits >= 8 {
                out.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return out
    }

    /// Luhn mod N over the base-32 code points, so a single mistyped character or a swap of
    /// two adjacent ones changes the check.
    static func luhnCheck(_ text: String) -> Character {
        let n = 32
        var factor = 1
        var sum = 0
        for ch in text.reversed() {
            var addend = factor * (value(of: ch) ?? 0)
            factor = factor == 2 ? 1 : 2
            addend = addend / n + addend % n
            sum += addend
        }
        let check = (n - sum % n) % n
        return alphabet[check]
    }
}
