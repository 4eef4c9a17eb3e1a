import Glibc

/// Where a peer listens, `HOST:PORT` (`127.0.0.1:7733`, `[::1]:0`,
/// `photos.example.org:7733`): the one type, parser and format of an address, whether a
/// setting or flag gives it, a share URL carries it, a peer announces it or a store keeps it.
///
/// Kept as text plus port so that an address prints exactly as configured; resolution to
/// socket addresses happens when binding or dialing.
public struct PeerAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, with IPv6 literals in brackets, as users type addresses.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension PeerAddress {
    /// Parses `HOST:PORT`, or `[IPV6]:PORT` (an IPv6 host goes in brackets). The port is
    /// 1…65535, or 0 too with `allowingPortZero` (a listen address: any free port). Throws
    /// saying which part is wrong.
    public static func parse(_ text: String, allowingPortZero: Bool = false) throws(PeerAddressError)
        -> PeerAddress
    {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .notBracketedHostPort(text) }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard isPlausibleHost(host), rest.hasPrefix(":") else { throw .notBracketedHostPort(text) }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .notHostPort(text) }
            host = text[..<colon]
            guard isPlausibleHost(host), !host.contains(":") else { throw .notHostPort(text) }
            portText = text[text.index(after: colon)...]
        }
        guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = UInt16(portText),
            port > 0 || allowingPortZero
        else { throw .notAPort(String(portText), allowingZero: allowingPortZero) }
        return PeerAddress(host: String(host), port: port)
    }

    /// Parses an address another peer can dial (port 1…65535); nil when `text` is not one.
    public init?(parsing text: String) {
        guard let address = try? Self.parse(text) else { return nil }
        self = address
    }

    /// Whether `host` can be a host name or address literal: not empty, with no whitespace
    /// or slash (which no name or literal has, and which would garble a URL or a log line).
    public static func isPlausibleHost(_ host: some StringProtocol) -> Bool {
        !host.isEmpty && !host.contains(where: { $0.isWhitespace || $0 == "/" })
    }
}

extension PeerAddress {
    /// True for a host meaning "every interface" (`0.0.0.0`, `::` in any spelling, `*`),
    /// which another machine cannot dial: the one wildcard rule of the engine and the daemon.
    public var isWildcard: Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "*" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return v4.s_addr == 0 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { $0.allSatisfy { $0 == 0 } }
    }
}
