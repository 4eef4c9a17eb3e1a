import FoundationEssentials
import Glibc
import Support
import Synchronization

/// Who may use the gallery: holders of a login token from `peershare ui`, and then the
/// browser sessions those tokens opened.
///
/// A login token is made for each `ui` request (only the daemon's own user reaches the
/// control socket), works once, and lapses after `loginValidity`; a URL left in a browser's
/// history or a terminal's scrollback lets nobody in later. A session lives in an HttpOnly,
/// SameSite=Strict cookie until the daemon stops, and carries its own CSRF token that every
/// POST must repeat in a header. Everything is in memory: a restart logs every browser out.
final class WebGate: Sendable {
    /// The gallery's root, `http://HOST:PORT` as bound.
    let base: String
    /// The cookie's name, with the port in it: cookies are per host, not per port, and two
    /// daemons of one machine must not log each other's browsers out.
    let cookieName: String
    static let loginValidity = Duration.seconds(600)
    static let maximumLogins = 16
    static let maximumSessions = 64

    private struct State {
        var logins: [String: ContinuousClock.Instant] = [:]
        /// Session ID → its CSRF token, oldest first for eviction.
        var sessions: [(id: String, csrf: String)] = []
    }

    private let state = Mutex(State())

    init(base: String, port: UInt16) {
        self.base = base
        self.cookieName = "peershare_\(port)"
    }

    /// `HOST:PORT` a browser on this machine reaches `listener` at: a wildcard address
    /// becomes loopback.
    static func browsableAddress(_ listener: TCPListener) -> String {
        switch listener.host {
        case "0.0.0.0": return "127.0.0.1:\(listener.port)"
        case "::": return "[::1]:\(listener.port)"
        default: return listener.address
        }
    }

    /// A new one-time login URL.
    func loginURL() -> String {
        let token = Self.randomToken()
        state.withLock { state in
            let now = ContinuousClock.now
            state.logins = state.logins.filter { now - $0.value < Self.loginValidity }
            if state.logins.count >= Self.maximumLogins,
                let oldest = state.logins.min(by: { $0.value < $1.value })?.key
            {
                state.logins[oldest] = nil
            }
            state.logins[token] = now
        }
        return base + "/login?token=" + token
    }

    /// Spends a login token: the new session's ID, or nil for a token that is unknown, used
    /// or lapsed.
    func logIn(token: String) -> String? {
        state.withLock { state in
            guard let key = state.logins.keys.first(where: { Self.same($0, token) }) else { return nil }
            let made = state.logins.removeValue(forKey: key)!
            guard ContinuousClock.now - made < Self.loginValidity else { return nil }
            if state.sessions.count >= Self.maximumSessions { state.sessions.removeFirst() }
            let session = (id: Self.randomToken(), csrf: Self.randomToken())
            state.sessions.append(session)
            return session.id
        }
    }

    /// The CSRF token of the session whose cookie value is `id`; nil when there is none.
    func csrfToken(session id: String?) -> String? {
        guard let id, !id.isEmpty else { return nil }
        return state.withLock { state in state.sessions.first { Self.same($0.id, id) }?.csrf }
    }

    /// The `Set-Cookie` value that opens session `id`.
    func cookie(session id: String) -> String {
        "\(cookieName)=\(id); Path=/; HttpOnly; SameSite=Strict"
    }

    /// Compares in time that does not depend on where the texts differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// 32 random bytes in hex (the system's generator draws from getrandom).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).count == 1
                ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }
}
