import ControlProtocol
import Glibc
import Support
import Synchronization

/// The control socket: a Unix stream socket (mode 0600) accepting clients on a dedicated
/// thread and serving each on its own thread, never on the Swift concurrency pool.
///
/// Only the daemon's own user is served (SO_PEERCRED). `stop()` stops accepting, removes
/// the socket file, lets requests in flight finish and waits for client threads.
final class ControlServer: Sendable {
    let path: String
    private let fd: Int32
    private let fileIdentity: (dev_t, ino_t)?
    private let logger: Logger
    private let stopSignal = StopSignal()
    /// The accept thread and one thread per client.
    private let threads = ThreadGroup()
    private let clients = Mutex(0)
    private let accepting = Mutex(false)
    /// Refusals for too many connections since the last warning, and when that was: a
    /// flood of local connects gets one log line every `refusalLogInterval`, not one each.
    private let refusals = Mutex<(count: Int, lastLogged: ContinuousClock.Instant?)>((0, nil))
    private static let refusalLogInterval = Duration.seconds(10)

    /// Prepares the path and binds; the socket accepts connections as soon as this returns.
    init(path: String, logger: Logger) throws(DaemonError) {
        try ControlSocketPath.prepare(path, logger: logger)
        guard var address = UnixSocket.address(path) else { throw .controlSocketPathTooLong(path) }
        let fd: Int32
        do {
            fd = try UnixSocket.makeSocket(SOCK_STREAM, for: path)
        } catch {
            throw .controlSocket(error)
        }
        // The file is created by bind: a umask of 0177 makes it 0600 from its first instant.
        let previousMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(previousMask)
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 64) == 0 else {
            let error = SystemCallError("bind", path)
            close(fd)
            throw .controlSocket(error)
        }
        self.path = path
        self.fd = fd
        self.fileIdentity = ControlSocketPath.identity(of: path)
        self.logger = logger
    }

    /// Whether the accept thread is running (the watchdog stops pinging when it is not).
    var isAccepting: Bool { accepting.withLock { $0 } }

    /// Starts accepting; `limits` is read per connection so a reload applies to new clients.
    func start(routes: ControlRoutes, limits: @escaping @Sendable () -> DaemonLimits) {
        accepting.withLock { $0 = true }
        threads.start(name: "control-accept") { [self] in
            defer { accepting.withLock { $0 = false } }
            acceptLoop(routes: routes, limits: limits)
        }
    }

    /// Stops accepting, removes the socket file, and waits up to `timeout` for clients.
    func stop(timeout: Duration = .seconds(10)) {
        stopSignal.fire()
        if let ours = fileIdentity, let now = ControlSocketPath.identity(of: path), now == ours {
            unlink(path)
        }
        if !threads.wait(timeout: timeout) {
            logger.warning("control clients still busy after \(timeout); stopping anyway")
        }
        close(fd)
    }

    private func acceptLoop(routes: ControlRoutes, limits: @Sendable () -> DaemonLimits) {
        while true {
            let ready = Poll.readable([fd, stopSignal.fd])
            if ready.contains(1) { return }
            let client = accept(fd, nil, nil)
            guard client >= 0 else {
                if errno != EINTR && errno != ECONNABORTED && errno != EAGAIN {
                    logger.error("accept failed on the control socket: \(String(cString: strerror(errno)))")
                    return
                }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            admit(client, routes: routes, limits: limits())
        }
    }

    /// Checks the client and hands it to a new thread, or refuses it with an error line.
    private func admit(_ client: Int32, routes: ControlRoutes, limits: DaemonLimits) {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let credentials = try? PeerCredentials.of(client)
        if let refusal = refusal(for: credentials, limits: limits) {
            // This runs on the accept thread: never wait on the client here, or a few that
            // neither read nor close would hold up every other connection.
            let socket = LineSocket(fd: client, maxLineBytes: limits.maxControlLineBytes)
            socket.writeWithoutWaiting(ControlResponse.failure(id: .null, error: refusal).json)
            socket.close()
            return
        }
        threads.start(name: "control-client") { [self] in
            defer { clients.withLock { $0 -= 1 } }
            // Made on its thread: a connection is confined to the thread that serves it.
            let logger = logger.with("client_pid", "\(credentials?.pid ?? 0)")
            ControlConnection(fd: client, routes: routes, limits: limits, stop: stopSignal, logger: logger)
                .run()
        }
    }

    /// Counts a refusal; returns how many to report when it is time for a warning.
    private func refusalsToReport() -> Int? {
        refusals.withLock { state in
            state.count += 1
            if let last = state.lastLogged, ContinuousClock.now - last < Self.refusalLogInterval {
                return nil
            }
            defer { state = (0, .now) }
            return state.count
        }
    }

    /// Why `client` may not be served, or nil; counts it as a client when admitted.
    private func refusal(for credentials: PeerCredentials?, limits: DaemonLimits) -> ControlError? {
        guard let credentials else {
            logger.warning("cannot read a control client's credentials")
            return ControlError(.permissionDenied, "peershared could not verify who is connecting")
        }
        guard credentials.isAllowed(forDaemonUID: getuid()) else {
            logger.warning(
                "refused a control connection from another user",
                ["uid": "\(credentials.uid)", "pid": "\(credentials.pid)"])
            return ControlError(
                .permissionDenied,
                "peershared serves only its own user (uid \(getuid())), not uid \(credentials.uid)")
        }
        let admitted = clients.withLock { count in
            guard count < limits.maxControlConnections else { return false }
            count += 1
            return true
        }
        guard admitted else {
            if let refused = refusalsToReport() {
                logger.warning(
                    "refused control connections: too many open",
                    ["limit": "\(limits.maxControlConnections)", "refused": "\(refused)"])
            }
            return ControlError(
                .tooManyConnections,
                "peershared already serves \(limits.maxControlConnections) control connections "
                    + "(max_control_connections): close some and retry")
        }
        return nil
    }
}
