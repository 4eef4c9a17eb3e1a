import ControlProtocol
import FoundationEssentials
import Glibc
import QRCode
import Store
import Support

/// Answers the gallery's requests: the login, the page and its assets, thumbnails, full
/// photos, QR codes, the live-update stream, and API calls (docs/WEB.md lists them all).
///
/// Every request but the login must come with the session cookie; every POST must also
/// carry the session's CSRF token and come from the gallery's own origin; and every request
/// must name this server in its Host header as an IP address or `localhost`, so a web page
/// elsewhere cannot reach it through a DNS name of its own that points here.
final class WebRouter: Sendable {
    private let gate: WebGate
    private let port: UInt16
    private let api: WebAPI
    private let library: Library
    private let bus: EventBus
    private let stopSignal = StopSignal()

    init(gate: WebGate, port: UInt16, routes: ControlRoutes, services: DaemonServices) {
        self.gate = gate
        self.port = port
        self.api = WebAPI(routes: routes, logger: services.logger)
        self.library = services.library
        self.bus = services.bus
    }

    /// Ends every live-update stream (the server is stopping).
    func stop() {
        _ = stopSignal.fire()
    }

    func respond(_ request: WebRequest) -> WebResponse {
        guard Self.isLocalHost(request.header("Host"), port: port) else {
            return .text(
                "this server answers only to an IP address or localhost with its port\n", status: 421)
        }
        if request.path == "/login" {
            guard request.method == "GET" else { return .text("use GET\n", status: 405) }
            return logIn(token: request.query("token"))
        }
        guard let csrf = gate.csrfToken(session: request.cookie(gate.cookieName)) else {
            return .page(
                "Log in from your terminal",
                "Run <code>peershare ui</code> on this computer: it opens the gallery with a login link.",
                status: 401)
        }
        if request.method == "POST" {
            guard request.path.hasPrefix("/api/") else { return .text("not found\n", status: 404) }
            if let refusal = crossSiteRefusal(request, csrf: csrf) { return refusal }
            return api.call(String(request.path.dropFirst("/api/".count)), body: request.body)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text("use GET, or POST for /api/\n", status: 405)
        }
        return get(request, csrf: csrf)
    }

    private func get(_ request: WebRequest, csrf: String) -> WebResponse {
        let path = request.path
        if path == "/" || path == "/index.html" {
            return WebAssets.index(csrf: csrf)
        }
        if path.hasPrefix("/assets/") {
            return WebAssets.file(String(path.dropFirst("/assets/".count)))
        }
        if path.hasPrefix("/thumbnail/") {
            return WebPhotoFiles.thumbnail(String(path.dropFirst("/thumbnail/".count)), in: library)
        }
        if path.hasPrefix("/data/") {
            return WebPhotoFiles.data(
                String(path.dropFirst("/data/".count)), range: request.header("Range"), in: library)
        }
        if path == "/qr.svg" {
            return qrCode(request.query("text"))
        }
        if path == "/events" {
            return WebResponse(
                status: 200,
                headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
                body: .stream(WebEventStream(bus: bus, stop: stopSignal)))
        }
        return .text("not found\n", status: 404)
    }

    private func logIn(token: String?) -> WebResponse {
        guard let token, let session = gate.logIn(token: token) else {
            return .page(
                "This login link does not work",
                "A link from <code>peershare ui</code> works once, for ten minutes, until the daemon "
                    + "restarts. Run <code>peershare ui</code> again for a new one.",
                status: 403)
        }
        return WebResponse(
            status: 303, headers: [("Location", "/"), ("Set-Cookie", gate.cookie(session: session))])
    }

    /// Why a POST is refused as possibly cross-site, or nil when it is the gallery's own.
    private func crossSiteRefusal(_ request: WebRequest, csrf: String) -> WebResponse? {
        if let origin = request.header("Origin"), origin != "null" {
            guard let host = Self.host(ofOrigin: origin), Self.isLocalHost(host, port: port),
                host == request.header("Host")
            else {
                return .failure(
                    ControlError(.permissionDenied, "a request from another site (\(origin)) is refused"),
                    status: 403)
            }
        }
        guard let sent = request.header("X-PeerShare-CSRF"), WebGate.same(sent, csrf) else {
            return .failure(
                ControlError(
                    .permissionDenied,
                    "the request lacks the page's CSRF token: reload the gallery and try again"),
                status: 403)
        }
        return nil
    }

    private func qrCode(_ text: String?) -> WebResponse {
        guard let text, !text.isEmpty, text.utf8.count <= 1024 else {
            return .text("qr.svg needs text= of 1 to 1024 bytes\n", status: 400)
        }
        do {
            let svg = QRSVG.document(try QRMatrix(encoding: text))
            return .content(Array(svg.utf8), type: "image/svg+xml", cache: "private, max-age=3600")
        } catch {
            return .text(error.message + "\n", status: 400)
        }
    }

    /// `HOST:PORT` of an `http://HOST:PORT` origin.
    static func host(ofOrigin origin: String) -> String? {
        guard origin.hasPrefix("http://") else { return nil }
        return String(origin.dropFirst("http://".count))
    }

    /// Whether a Host header names this server by an IP address (or `localhost`) and its
    /// port.
    static func isLocalHost(_ header: String?, port: UInt16) -> Bool {
        guard let header, let address = try? PeerAddress.parse(header), address.port == port else {
            return false
        }
        let host = address.host
        if host == "localhost" { return true }
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
