/// A `HOST:PORT` address as settings and flags give it (`127.0.0.1:7733`, `[::1]:0`,
/// `photos.example.org:7733`).
///
/// Kept as text plus port so that the advertised address is printed exactly as configured;
/// resolution to socket addresses happens when binding.
struct HostPort: Sendable, Hashable, CustomStringConvertible {
    let host: String
    let port: UInt16

    /// What a valid value looks like, for error messages.
    static let expected = "HOST:PORT, such as 0.0.0.0:7733, 127.0.0.1:0 or [::1]:7733"

    /// What a valid `advertise` value looks like: addresses another machine can dial.
    static let expectedAdvertised =
        "one or more HOST:PORT separated by commas, such as photos.example.org:7733 or "
        + "192.0.2.7:7733,[2001:db8::7]:7733 (a port other than 0, and not a wildcard address such as 0.0.0.0)"

    init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; an IPv6 host goes in brackets.
    init?(parsing text: String) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return nil }
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }),
            portText.allSatisfy(\.isNumber), let port = UInt16(portText)
        else { return nil }
        self.init(host: String(host), port: port)
    }

    /// Parses an `advertise` value: comma-separated `HOST:PORT`s that another machine can
    /// dial (no port 0, no wildcard host); nil when any entry is not one.
    static func advertisedList(_ text: String) -> [HostPort]? {
        var addresses: [HostPort] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = entry.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            guard let address = HostPort(parsing: String(trimmed)), address.port != 0,
                !AdvertisedAddresses.isWildcard(address.host)
            else { return nil }
            addresses.append(address)
        }
        return addresses
    }

    var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
