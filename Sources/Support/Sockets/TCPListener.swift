import Glibc
import Synchronization

/// A listening TCP socket whose accept loop runs on its own thread: the one listener for
/// peers, whether the daemon binds it at start-up or the replication engine does.
///
/// Accepting blocks, and blocking the two-thread concurrency pool would stall the daemon, so
/// the loop lives on a dedicated `IOThread` and hands each connection to a callback. Binding
/// to port 0 lets the system pick a free port, reported by `port`.
public final class TCPListener: @unchecked Sendable {
    /// The numeric address the socket is bound to.
    public let host: String
    /// The bound port; the chosen one when port 0 was asked for.
    public let port: UInt16

    private let fd: Int32
    /// Fired by `close()`; wakes the accept loop out of `poll`.
    private let closing = StopSignal()
    private let thread = Mutex<IOThread?>(nil)

    /// The listening socket, for a server that runs its own accept loop (the gallery's
    /// libmicrohttpd); `close()` still closes it, so such a server must give it back first.
    public var descriptor: Int32 { fd }

    /// "host:port" as bound, for status output and logs.
    public var address: String { SocketAddress.display(host: host, port: port) }

    private init(fd: Int32, host: String, port: UInt16) {
        self.fd = fd
        self.host = host
        self.port = port
    }

    deinit {
        close()
    }

    /// Binds and listens on `host:port`; port 0 picks a free port.
    public static func bind(host: String, port: UInt16, backlog: Int32 = 128) throws(SocketError)
        -> TCPListener
    {
        let display = SocketAddress.display(host: host, port: port)
        var lastReason = "no usable address"
        var inUse = false
        for candidate in try SocketAddress.resolve(host: host, port: port, passive: true) {
            switch openListening(family: candidate.family, address: candidate.address, backlog: backlog) {
            case .success(let fd):
                guard let local = SocketAddress.endpoint(of: fd, peer: false) else {
                    Glibc.close(fd)
                    throw .cannotListen(address: display, reason: "cannot read the bound address")
                }
                return TCPListener(fd: fd, host: local.host, port: local.port)
            case .failure(let reason):
                lastReason = reason.text
                inUse = reason.code == EADDRINUSE
            }
        }
        if inUse { throw .addressInUse(address: display) }
        throw .cannotListen(address: display, reason: lastReason)
    }

    private struct Reason: Error {
        let text: String
        var code: Int32 = 0
    }

    private static func openListening(family: Int32, address: [UInt8], backlog: Int32) -> Result<
        Int32, Reason
    > {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failure(Reason(text: String(cString: strerror(errno)), code: errno)) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        // Non-blocking so that a connection that vanishes between poll and accept cannot
        // block the loop.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withUnsafeBytes { raw in
            Glibc.bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard bound == 0, listen(fd, backlog) == 0 else {
            let code = errno
            Glibc.close(fd)
            return .failure(Reason(text: String(cString: strerror(code)), code: code))
        }
        return .success(fd)
    }

    /// Starts the accept loop on a dedicated thread. `onAccept` runs on that thread for each
    /// connection and should hand the socket off quickly (a TLS handshake belongs on
    /// another thread). Calling `start` twice, or after `close`, does nothing.
    public func start(onAccept: @escaping @Sendable (TCPSocket) -> Void) {
        thread.withLock { thread in
            guard thread == nil, !closing.isFired else { return }
            thread = IOThread.start(name: "peer-accept") { [self] in acceptLoop(onAccept) }
        }
    }

    /// Stops accepting, waits for the accept loop to end and releases the port.
    /// Connections already handed out are not affected. Safe to call more than once, and
    /// from `onAccept` (then the loop ends, and releases the port, once `onAccept` returns).
    public func close() {
        guard closing.fire() else { return }
        // `start` checks `closing` under this lock: after it, no loop can begin.
        guard let thread = thread.withLock({ $0 }) else {
            Glibc.close(fd)
            return
        }
        // The loop closes the listening socket on its way out, so that the descriptor
        // number cannot be reused while it still polls it.
        thread.join()
    }

    private func acceptLoop(_ onAccept: @Sendable (TCPSocket) -> Void) {
        while true {
            let ready = Poll.readable([fd, closing.fd])
            if ready.contains(1) || closing.isFired {
                Glibc.close(fd)
                return
            }
            guard ready.contains(0) else { continue }
            let client = accept(fd, nil, nil)
            if client >= 0 {
                onAccept(TCPSocket(adopting: client))
            } else if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                // Out of descriptors or memory: wait a little (or for close) instead of
                // spinning on a connection we cannot take yet.
                _ = closing.wait(timeout: .milliseconds(100))
            }
        }
    }
}
