import ControlProtocol
import Foundation
import Glibc
import Support
import TestSupport

/// What the gallery answered one request with.
struct HTTPTestResponse {
    let status: Int
    /// Header names in lower case.
    let headers: [String: String]
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSON? { JSONLine.decode(Data(body)) }
}

/// A browser stand-in for the gallery's tests: one request per connection, written by hand
/// so that a test can send what no browser would (a forged Origin, a wrong Host, a huge
/// body, half a request).
final class HTTPTestClient: @unchecked Sendable {
    let port: UInt16
    var cookie: String?
    var csrf: String?

    init(port: UInt16) {
        self.port = port
    }

    /// A client logged in to `daemon`'s gallery through a fresh `peershare ui` link.
    static func loggedIn(to daemon: DaemonProcess) throws -> HTTPTestClient {
        let (client, loginPath) = try fromUI(daemon)
        let login = try client.get(loginPath)
        guard login.status == 303, let setCookie = login.headers["set-cookie"] else {
            throw HarnessError("the login link was refused: \(login.status) \(login.text)")
        }
        client.cookie = String(setCookie.prefix { $0 != ";" })
        let page = try client.get("/")
        guard let range = page.text.range(of: #"name="csrf-token" content=""#) else {
            throw HarnessError("the page has no CSRF token: \(page.text)")
        }
        client.csrf = String(page.text[range.upperBound...].prefix { $0 != "\"" })
        return client
    }

    /// A client of `daemon`'s gallery, not logged in, and the path of a new login link.
    static func fromUI(_ daemon: DaemonProcess) throws -> (HTTPTestClient, String) {
        guard let url = try daemon.json("ui")["url"]?.stringValue,
            let portText = url.split(separator: ":").last?.split(separator: "/").first,
            let port = UInt16(portText),
            let path = url.range(of: "/login").map({ String(url[$0.lowerBound...]) })
        else {
            throw HarnessError("peershare ui gave no usable URL")
        }
        return (HTTPTestClient(port: port), path)
    }

    var host: String { "127.0.0.1:\(port)" }

    func get(_ path: String, headers: [(String, String)] = []) throws -> HTTPTestResponse {
        try send("GET", path, headers: headers)
    }

    /// `POST /api/COMMAND` with the session's CSRF token, as the page sends it.
    func api(_ command: String, _ args: JSON = [:], headers: [(String, String)] = []) throws
        -> HTTPTestResponse
    {
        var all = [("Content-Type", "application/json")]
        if !headers.contains(where: { $0.0 == "Origin" }) { all.append(("Origin", "http://\(host)")) }
        if let csrf { all.append(("X-PeerShare-CSRF", csrf)) }
        return try send("POST", "/api/" + command, headers: all + headers, body: Array(JSONLine.text(args)))
    }

    /// Sends one request and reads the answer to its end.
    func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [])
        throws -> HTTPTestResponse
    {
        let socket = try connect()
        var head = "\(method) \(path) HTTP/1.1\r\n"
        var all = headers
        if !all.contains(where: { $0.0 == "Host" }) { all.insert(("Host", host), at: 0) }
        if let cookie { all.append(("Cookie", cookie)) }
        all.append(("Connection", "close"))
        if method == "POST" { all.append(("Content-Length", "\(body.count)")) }
        for (name, value) in all where !value.isEmpty { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try Self.write(socket, Array(head.utf8) + body)
        return try Self.parse(try Self.readToEnd(socket))
    }

    /// A raw connection to the gallery, for half requests and streams.
    func connect() throws -> TCPSocket {
        let socket = try TCPDialer.connect(host: "127.0.0.1", port: port, timeout: .seconds(10))
        let flags = fcntl(socket.fileDescriptor, F_GETFL)
        _ = fcntl(socket.fileDescriptor, F_SETFL, flags & ~O_NONBLOCK)
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(
            socket.fileDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }

    static func write(_ socket: TCPSocket, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket.fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw HarnessError("the gallery closed the connection while we sent") }
            sent += count
        }
    }

    /// Reads until the server closes (or 30 s pass without a byte).
    static func readToEnd(_ socket: TCPSocket) throws -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket.fileDescriptor, &buffer, buffer.count, 0)
            if count == 0 { return all }
            guard count > 0 else {
                if errno == ECONNRESET { return all }
                throw HarnessError("reading the gallery's answer failed: \(String(cString: strerror(errno)))")
            }
            all += buffer[0..<count]
        }
    }

    /// Reads from a stream until `text` has arrived (or a minute passes).
    static func read(_ socket: TCPSocket, until text: String) throws -> String {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(60)
        while !String(decoding: all, as: UTF8.self).contains(text) {
            guard ContinuousClock.now < deadline else {
                throw HarnessError("no '\(text)' within a minute: \(String(decoding: all, as: UTF8.self))")
            }
            let count = recv(socket.fileDescriptor, &buffer, buffer.count, 0)
            guard count > 0 else {
                throw HarnessError(
                    "the stream ended before '\(text)': \(String(decoding: all, as: UTF8.self))")
            }
            all += buffer[0..<count]
        }
        return String(decoding: all, as: UTF8.self)
    }

    static func parse(_ bytes: [UInt8]) throws -> HTTPTestResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard
            let end = (0...max(0, bytes.count - 4)).first(where: {
                Array(bytes[$0..<min($0 + 4, bytes.count)]) == separator
            })
        else {
            throw HarnessError("no HTTP response: \(String(decoding: bytes, as: UTF8.self))")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusText = lines.first?.split(separator: " ").dropFirst().first,
            let status = Int(statusText)
        else {
            throw HarnessError("no status line: \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return HTTPTestResponse(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
    }
}
