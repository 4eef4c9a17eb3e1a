import FoundationEssentials
import Store
import Support

/// A share URL,
/// `peershare://HOST:PORT/ZONE_ID/owner=PEER_ID/invite=TOKEN[/title=T][/at=HOST:PORT]...[/member=PEER_ID@HOST:PORT]...`:
/// the capability that lets its holder ask the owner's daemon, or any member's, to join a
/// share.
///
/// Its fields are path segments, and the title is percent-encoded down to letters, digits
/// and `-._~`, so the URL survives a shell unquoted (no `&`, `?`, `;`, `#`, `*`, quotes or
/// spaces). The form before it, `…/ZONE_ID?owner=…&invite=…[&title=…]…`, is still read.
///
/// HOST:PORT is where the owner's daemon listens (each `at` another address of it: another
/// interface, another family; older readers ignore them), the peer ID is what its TLS certificate
/// must hash to (so the URL cannot send the token to anybody else), and TOKEN is the 128-bit
/// secret checked against the hash kept in the share's signed membership. Each `member` is
/// another member device that can admit the holder while the owner is away, pinned the same
/// way. Treat it like a password.
public struct ShareURL: Equatable, Sendable, CustomStringConvertible {
    /// A member device the joiner may ask instead of the owner: what its certificate must
    /// hash to, and where it listened when the URL was made.
    public struct Member: Equatable, Sendable {
        public let peer: PeerID
        public let address: PeerAddress

        public init(peer: PeerID, address: PeerAddress) {
            self.peer = peer
            self.address = address
        }
    }

    /// Most members one URL may list: what a URL may make a joiner dial.
    public static let maximumMembers = 16
    /// Most further owner addresses (`at`) one URL may list.
    public static let maximumAddresses = 8

    public let host: String
    public let port: UInt16
    public let zone: String
    public let owner: PeerID
    public let token: String
    public let title: String?
    public let members: [Member]
    /// The owner's further addresses, after HOST:PORT.
    public let alsoAt: [PeerAddress]

    /// Every address of the owner the URL gives, HOST:PORT first.
    public var ownerAddresses: [PeerAddress] { [PeerAddress(host: host, port: port)] + alsoAt }

    public init(
        host: String, port: UInt16, zone: String, owner: PeerID, token: String, title: String? = nil,
        alsoAt: [PeerAddress] = [], members: [Member] = []
    ) {
        self.alsoAt = alsoAt
        self.host = host
        self.port = port
        self.zone = zone
        self.owner = owner
        self.token = token
        self.title = title
        self.members = members
    }

    public static let scheme = "peershare://"

    /// Parses a URL, saying precisely what is wrong with a malformed one.
    public init(parsing text: String) throws(ShareURLError) {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.lowercased().hasPrefix(Self.scheme) else { throw .notAShareURL }
        let rest = trimmed.dropFirst(Self.scheme.count)
        guard let slash = rest.firstIndex(of: "/") else { throw .missing("the share ID after HOST:PORT/") }
        let address: PeerAddress
        do {
            address = try PeerAddress.parse(String(rest[..<slash]))
        } catch {
            throw .invalid("address", error.description)
        }
        let pathAndQuery = rest[rest.index(after: slash)...]
        // The field separator: `/` in the shell-safe form, `&` after a `?` in the older one.
        let separator: Character = pathAndQuery.contains("?") ? "&" : "/"
        let parts = pathAndQuery.split(
            separator: separator == "&" ? "?" : "/", maxSplits: 1, omittingEmptySubsequences: false)
        let zone = String(parts[0]).lowercased()
        guard LibraryStore.isCanonicalUUID(zone) else {
            throw .invalid("share ID", "'\(parts[0])' is not a share ID")
        }
        var query: [String: String] = [:]
        var memberTexts: [String] = []
        var addressTexts: [String] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: separator) {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = kv.count == 2 ? PercentEncoding.decode(kv[1]) ?? String(kv[1]) : ""
                switch kv[0] {
                case "member": memberTexts.append(value)
                case "at": addressTexts.append(value)
                default: query[String(kv[0])] = value
                }
            }
        }
        guard let ownerText = query["owner"], !ownerText.isEmpty else { throw .missing("owner=PEER_ID") }
        let owner: PeerID
        do {
            owner = try PeerID(parsing: ownerText)
        } catch {
            throw .invalid("owner", error.description)
        }
        guard let token = query["invite"]?.lowercased(), !token.isEmpty else {
            throw .missing("invite=TOKEN")
        }
        guard token.count >= 32, token.count <= 128, token.allSatisfy({ $0.isHexDigit }) else {
            throw .invalid(
                "invite", "the token must be at least 32 hexadecimal characters; copy the whole URL")
        }
        self.init(
            host: address.host, port: address.port, zone: zone, owner: owner, token: token,
            title: query["title"], alsoAt: try Self.addresses(addressTexts),
            members: try Self.members(memberTexts))
    }

    /// The `at=HOST:PORT` values, checked.
    private static func addresses(_ texts: [String]) throws(ShareURLError) -> [PeerAddress] {
        guard texts.count <= maximumAddresses else {
            throw .invalid(
                "at",
                "the URL lists \(texts.count) further owner addresses; at most \(maximumAddresses) are read")
        }
        var addresses: [PeerAddress] = []
        for text in texts {
            do {
                addresses.append(try PeerAddress.parse(text))
            } catch {
                throw .invalid("at", "'\(text)': \(error)")
            }
        }
        return addresses
    }

    /// The `member=PEER_ID@HOST:PORT` values, checked.
    private static func members(_ texts: [String]) throws(ShareURLError) -> [Member] {
        guard texts.count <= maximumMembers else {
            throw .invalid(
                "member", "the URL lists \(texts.count) members; at most \(maximumMembers) are read")
        }
        var members: [Member] = []
        for text in texts {
            guard let at = text.firstIndex(of: "@") else {
                throw .invalid("member", "'\(text)' is not PEER_ID@HOST:PORT")
            }
            do {
                let peer = try PeerID(parsing: String(text[..<at]))
                let address = try PeerAddress.parse(String(text[text.index(after: at)...]))
                members.append(Member(peer: peer, address: address))
            } catch {
                throw .invalid("member", "'\(text)': \(error)")
            }
        }
        return members
    }

    public var description: String {
        let address = PeerAddress(host: host, port: port)
        var text = "\(Self.scheme)\(address)/\(zone)/owner=\(owner)/invite=\(token)"
        if let title {
            // Nothing a shell, a URL or the field separators read is left unencoded.
            text += "/title=\(PercentEncoding.encode(title, keeping: PercentEncoding.isUnreserved))"
        }
        for address in alsoAt { text += "/at=\(address)" }
        for member in members { text += "/member=\(member.peer)@\(member.address)" }
        return text
    }
}
