import Foundation
import Store
import Support

/// A share URL, `peershare://HOST:PORT/ZONE_ID?owner=PEER_ID&invite=TOKEN[&title=T]`: the
/// capability that lets its holder ask the owner's daemon to join a share.
///
/// HOST:PORT is where the owner's daemon listens, the peer ID is what its TLS certificate
/// must hash to (so the URL cannot send the token to anybody else), and TOKEN is the 128-bit
/// secret the owner checks against the hash it keeps. Treat it like a password.
public struct ShareURL: Equatable, Sendable, CustomStringConvertible {
    public let host: String
    public let port: UInt16
    public let zone: String
    public let owner: PeerID
    public let token: String
    public let title: String?

    public init(host: String, port: UInt16, zone: String, owner: PeerID, token: String, title: String? = nil)
    {
        self.host = host
        self.port = port
        self.zone = zone
        self.owner = owner
        self.token = token
        self.title = title
    }

    public static let scheme = "peershare://"

    /// Parses a URL, saying precisely what is wrong with a malformed one.
    public init(parsing text: String) throws(ShareURLError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
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
        let parts = pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let zone = String(parts[0]).lowercased()
        guard LibraryStore.isCanonicalUUID(zone) else {
            throw .invalid("share ID", "'\(parts[0])' is not a share ID")
        }
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = kv.count == 2 ? String(kv[1]).removingPercentEncoding ?? String(kv[1]) : ""
                query[String(kv[0])] = value
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
            title: query["title"])
    }

    public var description: String {
        let address = PeerAddress(host: host, port: port)
        var text = "\(Self.scheme)\(address)/\(zone)?owner=\(owner)&invite=\(token)"
        if let title, let encoded = title.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed)
        {
            text += "&title=\(encoded)"
        }
        return text
    }
}

extension CharacterSet {
    fileprivate static let urlQueryValueAllowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+#")
        return set
    }()
}
