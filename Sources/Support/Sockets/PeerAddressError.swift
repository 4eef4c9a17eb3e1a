/// Why a text is not `HOST:PORT`; the messages quote the text and name the expected form.
public enum PeerAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Starts with `[` but is not `[IPV6]:PORT`.
    case notBracketedHostPort(String)
    /// No `:PORT`, no host, or a host that cannot be one.
    case notHostPort(String)
    /// The text after the last colon is not a port number.
    case notAPort(String, allowingZero: Bool)

    public var description: String {
        switch self {
        case .notBracketedHostPort(let text): return "'\(text)' is not [IPV6]:PORT"
        case .notHostPort(let text): return "'\(text)' is not HOST:PORT"
        case .notAPort(let text, let allowingZero):
            return "'\(text)' is not a port number (\(allowingZero ? 0 : 1)–65535)"
        }
    }
}
