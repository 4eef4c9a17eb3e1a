/// Why a share URL was refused before anything was sent.
public enum ShareURLError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAShareURL
    case missing(String)
    case invalid(String, String)

    public var description: String {
        switch self {
        case .notAShareURL:
            return "not a share URL: it must start with peershare:// (copy the whole URL the owner gave you)"
        case .missing(let part): return "the share URL lacks \(part): copy the whole URL"
        case .invalid(let part, let reason): return "malformed share URL (\(part)): \(reason)"
        }
    }
}
