import Support

/// The `listen` and `advertise` settings' side of `PeerAddress`: what a valid value looks
/// like (for error messages) and the rules an advertised address adds.
extension PeerAddress {
    /// What a valid `listen` value looks like.
    static let expected = "HOST:PORT, such as 0.0.0.0:7733, 127.0.0.1:0 or [::1]:7733"

    /// What a valid `advertise` value looks like: addresses another machine can dial.
    static let expectedAdvertised =
        "one or more HOST:PORT separated by commas, such as photos.example.org:7733 or "
        + "192.0.2.7:7733,[2001:db8::7]:7733 (a port other than 0, and not a wildcard address such as 0.0.0.0)"

    /// Parses a `listen` value: any `HOST:PORT`, port 0 for a free one; nil when it is not one.
    static func listen(_ text: String) -> PeerAddress? {
        try? parse(text, allowingPortZero: true)
    }

    /// Parses an `advertise` value: comma-separated `HOST:PORT`s that another machine can
    /// dial (no port 0, no wildcard host); nil when any entry is not one.
    static func advertisedList(_ text: String) -> [PeerAddress]? {
        var addresses: [PeerAddress] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = entry.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            guard let address = PeerAddress(parsing: String(trimmed)),
                !AdvertisedAddresses.isWildcard(address.host)
            else { return nil }
            addresses.append(address)
        }
        return addresses
    }
}
