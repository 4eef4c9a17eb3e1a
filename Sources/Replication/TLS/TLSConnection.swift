import COpenSSL
import Store
import Support
import Synchronization

/// An authenticated, encrypted byte stream to one peer.
///
/// Created by a blocking handshake over a connected `TCPSocket`; afterwards `remotePeerID`
/// is the pinned identity of the other side. Calls block the calling thread (use
/// `IOThread`), honour the configured timeouts, and one thread may read while another
/// writes. `close()` sends a TLS close_notify and wakes any blocked reader.
///
/// OpenSSL writes with write(2), so the process must ignore SIGPIPE (the daemon does so at
/// start); otherwise a peer that vanishes mid-write kills the process.
public final class TLSConnection: @unchecked Sendable {
    /// The other side's peer ID, verified during the handshake.
    public let remotePeerID: PeerID
    /// The negotiated protocol; always "TLSv1.3".
    public let protocolVersion: String
    /// True on the side that dialed (the TLS client).
    public let isClient: Bool
    /// The other side's "host:port", for logs.
    public var remoteAddress: String { session.socket.remoteAddress }

    private let session: SSLSession
    private let timeouts: Mutex<(read: Duration?, write: Duration?)>
    /// Guards every OpenSSL call on `session`, `closed` and `broken`; never held while
    /// waiting on the socket. A plain mutex: the reader and the writer take it for every
    /// record, and the priority-inheritance `Mutex` made each hand-over a trip through the
    /// kernel (a tenth of a bulk receiver's worker thread).
    private let sessionLock = Lock()
    private var closed = false
    private var broken = false
    /// Keeps concurrent `write` calls from interleaving their bytes.
    private let writeOrder = Mutex<Void>(())

    private init(session: SSLSession, remotePeerID: PeerID, configuration: TLSConfiguration) {
        self.session = session
        self.remotePeerID = remotePeerID
        self.protocolVersion = session.protocolVersion
        self.isClient = configuration.role == .client
        self.timeouts = Mutex((configuration.readTimeout, configuration.writeTimeout))
    }

    /// Longest wait for incoming data in one `read` (nil: no limit). Starts as configured;
    /// a session may change it, for example once the hello exchange is over. Applies from
    /// the next call.
    public var readTimeout: Duration? {
        get { timeouts.withLock { $0.read } }
        set { timeouts.withLock { $0.read = newValue } }
    }

    /// Longest wait for the socket to take more data during one `write` (nil: no limit).
    public var writeTimeout: Duration? {
        get { timeouts.withLock { $0.write } }
        set { timeouts.withLock { $0.write = newValue } }
    }

    /// Runs the TLS 1.3 handshake on `socket`, taking ownership of it, and returns the
    /// connection once both sides are authenticated.
    ///
    /// On a client, a server whose certificate is not the expected peer ID fails here with
    /// `unexpectedPeer`. On a server, a refused client fails here with `peerNotAccepted`;
    /// that client, because of TLS 1.3's message order, only learns of it at its first read.
    public static func handshake(
        over socket: TCPSocket, configuration: TLSConfiguration
    ) throws(TLSError) -> TLSConnection {
        let session = try SSLSession(socket: socket, configuration: configuration)
        let deadline = ContinuousClock.now + configuration.handshakeTimeout
        while true {
            let step = session.step { SSL_do_handshake($0) }
            switch step {
            case .done:
                return try established(session, configuration: configuration)
            case .wantRead, .wantWrite:
                if session.wait(for: step, until: deadline) == .timedOut {
                    throw .timedOut(operation: "handshake", after: configuration.handshakeTimeout)
                }
            case .closedByPeer:
                throw .handshakeFailed(detail: "the other side closed the connection")
            case .failed(let failure):
                throw handshakeError(failure, session: session, configuration: configuration)
            }
        }
    }

    private static func established(
        _ session: SSLSession, configuration: TLSConfiguration
    ) throws(TLSError) -> TLSConnection {
        guard let der = session.presentedPeerCertificateDER(),
            let peer = PeerID(digest: SHA256Hasher.digest(der)),
            configuration.accepts(peer)
        else {
            // Unreachable with the verify callback in place; kept as a last line of defence.
            throw .handshakeFailed(detail: "the other side's certificate could not be verified")
        }
        return TLSConnection(session: session, remotePeerID: peer, configuration: configuration)
    }

    private static func handshakeError(
        _ failure: SSLSession.Failure, session: SSLSession, configuration: TLSConfiguration
    ) -> TLSError {
        let verification = session.verification
        if verification.refused, let presented = verification.presented {
            if let expected = configuration.expectedPeer {
                return .unexpectedPeer(presented: presented, expected: expected)
            }
            return .peerNotAccepted(presented: presented)
        }
        if failure.alertFromPeer { return .rejectedByPeer(detail: failure.detail) }
        return .handshakeFailed(detail: failure.detail)
    }

    /// Reads up to `buffer.count` bytes, blocking until at least one is available. Returns 0
    /// once the other side has closed the connection cleanly.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TLSError) -> Int {
        guard buffer.count > 0, let base = buffer.baseAddress else { return 0 }
        let timeout = readTimeout
        let deadline = timeout.map { ContinuousClock.now + $0 }
        let length = Int32(clamping: buffer.count)
        while true {
            let step = try locked { SSL_read($0, base, length) }
            switch step {
            case .done(let count):
                return count
            case .closedByPeer:
                return 0
            case .wantRead, .wantWrite:
                if session.wait(for: step, until: deadline) == .timedOut {
                    throw .timedOut(operation: "read", after: timeout ?? .zero)
                }
            case .failed(let failure):
                throw ioError(failure, operation: "read")
            }
        }
    }

    /// Reads up to `buffer.count` bytes like `read(into:)`, then goes on taking whatever has
    /// already arrived (more TLS records, without waiting) until the buffer is full: a bulk
    /// transfer comes in a few large reads instead of one per 16 KB record. Returns 0 once
    /// the other side has closed cleanly; a close or failure after some bytes is reported
    /// by the next call.
    public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(TLSError) -> Int {
        var total = try read(into: buffer)
        guard total > 0, let base = buffer.baseAddress else { return total }
        while total < buffer.count {
            let length = Int32(clamping: buffer.count - total)
            let step = try locked { SSL_read($0, base + total, length) }
            guard case .done(let count) = step else { break }
            total += count
        }
        return total
    }

    /// Reads up to `maximumCount` bytes; an empty result means the peer closed cleanly.
    public func read(maximumCount: Int) throws(TLSError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: maximumCount)
        // withUnsafeMutableBytes only rethrows untyped errors; Result keeps the type.
        let count = try output.withUnsafeMutableBytes { raw in
            Result { () throws(TLSError) -> Int in try read(into: raw) }
        }.get()
        output.removeLast(maximumCount - count)
        return output
    }

    /// Writes all of `bytes`, blocking until OpenSSL has handed them to the kernel.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(TLSError) {
        try writeOrder.withLock { (_) throws(TLSError) in
            let timeout = writeTimeout
            let deadline = timeout.map { ContinuousClock.now + $0 }
            var offset = 0
            while offset < bytes.count {
                let chunk = Int32(min(bytes.count - offset, 1 << 20))
                let start = bytes.baseAddress! + offset
                let step = try locked { SSL_write($0, start, chunk) }
                switch step {
                case .done(let count):
                    offset += count
                case .wantRead, .wantWrite:
                    if session.wait(for: step, until: deadline) == .timedOut {
                        throw .timedOut(operation: "write", after: timeout ?? .zero)
                    }
                case .closedByPeer:
                    throw .connectionFailed(
                        operation: "write", detail: "the other side closed the connection")
                case .failed(let failure):
                    throw ioError(failure, operation: "write")
                }
            }
        }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws(TLSError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(TLSError) in try write(raw) } }.get()
    }

    /// Sends close_notify (when the connection is still healthy) and shuts the socket, which
    /// wakes a reader blocked on another thread; it then gets `TLSError.closed`. Idempotent.
    public func close() {
        let wasOpen = sessionLock.withLock { () -> Bool in
            if closed { return false }
            closed = true
            // OpenSSL forbids SSL_shutdown after a fatal error on the connection.
            if !broken { _ = session.step { SSL_shutdown($0) } }
            return true
        }
        if wasOpen { session.socket.shutdown() }
    }

    private func locked(_ call: (OpaquePointer) -> Int32) throws(TLSError) -> SSLSession.Step {
        try sessionLock.withLock { () throws(TLSError) -> SSLSession.Step in
            if closed { throw .closed }
            let step = session.step(call)
            if case .failed = step { broken = true }
            return step
        }
    }

    private func ioError(_ failure: SSLSession.Failure, operation: String) -> TLSError {
        if sessionLock.withLock({ closed }) { return .closed }
        if failure.alertFromPeer { return .rejectedByPeer(detail: failure.detail) }
        return .connectionFailed(operation: operation, detail: failure.detail)
    }
}
