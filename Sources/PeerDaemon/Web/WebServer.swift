import CMicroHTTPD
import Glibc
import Support
import Synchronization

/// The gallery's HTTP server: GNU libmicrohttpd on a socket the daemon binds, so no HTTP
/// parser of ours reads a byte a browser sends.
///
/// One thread per connection (a handler may wait on SQLite or for events), at most
/// `web_max_connections` of them, each closed after `web_connection_timeout` of silence and
/// given `web_connection_memory_bytes` for its headers; bodies over `max_web_request_bytes`
/// are refused before they are read. Nothing here touches the replication engine's
/// threads: the handlers read the stores like any control request.
final class WebServer: @unchecked Sendable {
    /// What the server needs from its settings.
    struct Limits {
        var maxConnections: Int
        var timeoutSeconds: Int
        var connectionMemoryBytes: Int
        var maxRequestBytes: Int
    }

    private let listener: TCPListener
    private let router: WebRouter
    private let maxRequestBytes: Int
    private let logger: Logger
    /// The running libmicrohttpd daemon's address (a pointer is not Sendable); 0 once stopped.
    private let daemon = Mutex<UInt>(0)

    /// Starts serving on `listener`, which it takes over.
    init(listener: TCPListener, router: WebRouter, limits: Limits, logger: Logger) throws(WebServerError) {
        self.listener = listener
        self.router = router
        self.maxRequestBytes = limits.maxRequestBytes
        self.logger = logger
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard
            let started = peershare_mhd_start(
                listener.descriptor, webAccessHandler, context, webRequestCompleted, context,
                UInt32(limits.maxConnections), UInt32(limits.timeoutSeconds), limits.connectionMemoryBytes,
                512 << 10)
        else {
            throw WebServerError(message: "libmicrohttpd did not start on \(listener.address)")
        }
        daemon.withLock { $0 = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(started))) }
    }

    /// `HOST:PORT` as bound.
    var address: String { listener.address }

    /// Stops accepting, ends every connection (live streams see `stop` first) and waits for
    /// their threads, then releases the port.
    func stop() {
        let address = daemon.withLock { value in
            defer { value = 0 }
            return value
        }
        guard let running = OpaquePointer(bitPattern: address) else { return }
        router.stop()
        // Quiescing hands the listening socket back, so the listener closes it, once.
        _ = MHD_quiesce_daemon(running)
        MHD_stop_daemon(running)
        listener.close()
    }

    /// One call of libmicrohttpd's access handler: the first for a request's headers, then
    /// one per piece of its body, then a last one to answer.
    fileprivate func handle(
        _ connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let existing = context.pointee else {
            let exchange = WebExchange()
            context.pointee = Unmanaged.passRetained(exchange).toOpaque()
            if let length = lookup(connection, .HEADER_KIND, "Content-Length").flatMap(Int.init),
                length > maxRequestBytes
            {
                return queue(tooLarge, on: connection)
            }
            return .YES
        }
        let exchange = Unmanaged<WebExchange>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let upload, exchange.body.count + uploadSize.pointee <= maxRequestBytes {
                exchange.body.append(
                    contentsOf: UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee))
            } else {
                exchange.tooLarge = true
            }
            uploadSize.pointee = 0
            return .YES
        }
        if exchange.tooLarge { return queue(tooLarge, on: connection) }
        let request = WebRequest(
            method: method, path: url, body: exchange.body,
            header: { [self] in lookup(connection, .HEADER_KIND, $0) },
            cookie: { [self] in lookup(connection, .COOKIE_KIND, $0) },
            query: { [self] in lookup(connection, .GET_ARGUMENT_KIND, $0) })
        return queue(router.respond(request), on: connection)
    }

    private var tooLarge: WebResponse {
        .text("the request is larger than \(maxRequestBytes) bytes (max_web_request_bytes)\n", status: 413)
    }

    private func lookup(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ key: String) -> String? {
        MHD_lookup_connection_value(connection, kind, key).map { String(cString: $0) }
    }

    private func queue(_ response: WebResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(
                    raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .file(let fd, let offset, let length):
            made = MHD_create_response_from_fd_at_offset64(UInt64(length), fd, UInt64(offset))
        case .stream(let stream):
            made = MHD_create_response_from_callback(
                UInt64.max, 4096, webStreamRead, Unmanaged.passRetained(stream).toOpaque(),
                webStreamFree)
        }
        guard let made else {
            logger.warning("the web server could not make a response", ["status": "\(response.status)"])
            return .NO
        }
        defer { MHD_destroy_response(made) }
        for (name, value) in WebResponse.securityHeaders + response.headers {
            _ = MHD_add_response_header(made, name, value)
        }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
}

/// What a request collects between libmicrohttpd's calls: its body so far.
private final class WebExchange {
    var body: [UInt8] = []
    var tooLarge = false
}

private let webAccessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, upload, uploadSize, context in
    guard let cls, let connection, let uploadSize, let context else { return .NO }
    let server = Unmanaged<WebServer>.fromOpaque(cls).takeUnretainedValue()
    return server.handle(
        connection, url: url.map { String(cString: $0) } ?? "/",
        method: method.map { String(cString: $0) } ?? "",
        upload: upload, uploadSize: uploadSize, context: context)
}

private let webRequestCompleted: MHD_RequestCompletedCallback = { _, _, context, _ in
    guard let context, let exchange = context.pointee else { return }
    Unmanaged<WebExchange>.fromOpaque(exchange).release()
    context.pointee = nil
}

private let webStreamRead: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
    let stream = Unmanaged<WebEventStream>.fromOpaque(cls).takeUnretainedValue()
    guard let count = stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max)) else {
        return MHD_CONTENT_READER_END_OF_STREAM
    }
    return count
}

private let webStreamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let stream = Unmanaged<WebEventStream>.fromOpaque(cls).takeRetainedValue()
    stream.close()
}

/// Why the gallery does not run (its port taken, the server library failing): the daemon
/// logs it, keeps syncing, and `peershare ui` repeats it.
struct WebServerError: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { message }
}
