import ControlProtocol

/// What the gallery answers: a status, headers, and a body held in memory, read from a file,
/// or streamed (the live-update events).
struct WebResponse {
    enum Body {
        case bytes([UInt8])
        /// `length` bytes of the open descriptor from `offset`; libmicrohttpd closes it.
        case file(fd: Int32, offset: Int64, length: Int64)
        case stream(WebEventStream)
    }

    var status: Int
    var headers: [(String, String)]
    var body: Body

    init(status: Int, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A body of `type`.
    static func content(_ bytes: [UInt8], type: String, status: Int = 200, cache: String = "no-store")
        -> WebResponse
    {
        WebResponse(
            status: status, headers: [("Content-Type", type), ("Cache-Control", cache)], body: .bytes(bytes))
    }

    static func text(_ text: String, status: Int) -> WebResponse {
        content(Array(text.utf8), type: "text/plain; charset=utf-8", status: status)
    }

    static func json(_ value: JSON, status: Int = 200) -> WebResponse {
        content(Array(JSONLine.text(value)), type: "application/json", status: status)
    }

    /// A small page for a person who reached the gallery without logging in, or with a
    /// token that no longer works.
    static func page(_ title: String, _ message: String, status: Int) -> WebResponse {
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>PeerShare: \(title)</title>\
            </head><body><h1>\(title)</h1><p>\(message)</p></body></html>
            """
        return content(Array(html.utf8), type: "text/html; charset=utf-8", status: status)
    }

    /// An API error, in the control protocol's shape.
    static func failure(_ error: ControlError, status: Int) -> WebResponse {
        json(["ok": false, "error": error.json], status: status)
    }

    /// Headers every answer carries: no script, style or frame from anywhere else, no
    /// content sniffing, and no Referer (a login URL in the history must not leak).
    static let securityHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
    ]
}
