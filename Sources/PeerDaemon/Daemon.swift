import ControlProtocol
import FoundationEssentials
import Glibc
import Replication
import Store
import Support
import Synchronization

/// Wires the daemon's parts together and runs their lifecycle: start, reload, stop.
///
/// Holds no business logic. Start-up order matters: state directory and lock first (so a
/// second daemon touches nothing), identity, the library (both stores open), peer
/// listener, then the control socket, the thumbnail worker, and READY=1 only once that
/// socket accepts connections. Stopping runs the other way: the control server drains
/// (requests in flight, and so their transactions, finish) and the thumbnail in progress is
/// stored before the stores close.
final class Daemon: Sendable {
    private let loader: SettingsLoader
    private let logSink: LogSink
    private let logger: Logger
    private let notifier: SystemdNotifier
    private let lock: StateDirectoryLock
    private let state: DaemonState
    private let bus = EventBus()
    private let library: LibraryHandle
    private let listener: TCPListener
    private let replication: ReplicationHost
    private let control: ControlServer
    /// The web gallery's server; nil when it is off or could not start.
    private let web: WebServer?
    private let thumbnails: ThumbnailWorker
    private let watchdog: Watchdog?
    private let stopping = Mutex(false)
    private let stopped = Guarded(false)

    init(
        loader: SettingsLoader, settings: DaemonSettings, environment: [String: String], logSink: LogSink
    ) throws(DaemonError) {
        self.loader = loader
        self.logSink = logSink
        let logger = Logger(sink: logSink)
        self.logger = logger
        notifier = SystemdNotifier(environment: environment, logger: logger)
        // Before anything is created: a new state directory next to an existing library is
        // most likely a moved default, not a wish for a second identity.
        if let found = LibraryLocations(environment: environment).libraryElsewhere(
            than: settings.stateDirectory)
        {
            guard loader.arguments.newLibrary else {
                throw .libraryElsewhere(found: found, stateDirectory: settings.stateDirectory)
            }
            logger.warning(
                "starting a new, empty library although one exists elsewhere (--new-library)",
                ["state_dir": settings.stateDirectory, "found": found])
        }
        try Self.makeDirectory(settings.stateDirectory)
        lock = try StateDirectoryLock(stateDirectory: settings.stateDirectory)
        let tightened = PrivateModes.tighten(settings.stateDirectory)
        if !tightened.isEmpty {
            logger.warning(
                "made files other users could read private (files 0600, directories 0700)",
                ["state_dir": settings.stateDirectory, "files": "\(tightened.count)"])
        }
        let identityDirectory = settings.stateDirectory + "/identity"
        let identity: PeerIdentity
        do {
            identity = try PeerIdentity.loadOrCreate(directory: identityDirectory)
        } catch {
            throw .identity(directory: identityDirectory, reason: error.description)
        }
        let library = try LibraryStartup.open(
            stateDirectory: settings.stateDirectory, localPeer: identity.peerID,
            limits: settings.limits.store,
            logger: logger)
        let person: DeviceList
        do {
            person = try LocalPerson.loadOrFound(
                library, identity: identity, deviceName: Self.hostName(),
                now: UInt64(HybridLogicalClock.wallMilliseconds()))
        } catch {
            throw .library(directory: settings.stateDirectory + "/library", reason: "\(error)")
        }
        HistoryPublisher.publish(library, on: bus)
        self.library = LibraryHandle(library)
        listener = try Self.listen(on: settings.listen)
        let state = DaemonState(
            peerID: identity.peerID, pid: getpid(),
            listenAddress: PeerAddress(host: listener.host, port: listener.port), settings: settings,
            configFile: loader.configFile)
        self.state = state
        control = try ControlServer(path: settings.controlSocket, logger: logger)
        do {
            replication = try ReplicationHost(
                identity: identity, library: library, limits: settings.limits, bus: bus, logger: logger,
                discovery: settings.discoverySettings,
                advertised: { [state] in state.advertiseAddresses })
        } catch {
            throw .replication(reason: "\(error)")
        }
        let gallery = GalleryAccess(.off)
        let services = DaemonServices(
            state: state, bus: bus, logger: logger, library: library, replication: replication,
            gallery: gallery)
        let routes = ControlRoutes.catalog(services)
        web = Self.startGallery(settings, routes: routes, services: services)
        let control = control
        watchdog = Watchdog(environment: environment, notifier: notifier) { control.isAccepting }
        control.start(routes: routes) { [state] in state.settings.limits }
        listener.start { [replication] socket in replication.engine.acceptIncoming(socket) }
        watchdog?.start()
        thumbnails = ThumbnailWorker(library: library, logger: logger)
        thumbnails.start()
        let advertised = state.advertiseAddresses
        logger.info(
            "peershared \(PeerShareVersion.string) ready",
            [
                "peer": identity.peerID.short, "person": person.person.short, "listen": listener.address,
                "advertise": advertised.map(\.description).joined(separator: ","),
                "control_socket": settings.controlSocket, "state_dir": settings.stateDirectory,
            ])
        if advertised.isEmpty {
            logger.warning(
                "no address to advertise: listening on a wildcard with no network interface but loopback "
                    + "up; share URLs are refused until advertise = HOST:PORT is set",
                ["listen": listener.address])
        }
        notifier.notify("READY=1", statusLine)
    }

    /// Handles a signal from the signal thread.
    func handle(signal: Int32) {
        switch signal {
        case SIGHUP: reload()
        default: stop(reason: signal == SIGINT ? "SIGINT" : "SIGTERM")
        }
    }

    /// Blocks until `stop` has finished.
    func waitUntilStopped() {
        stopped.wait(until: { $0 })
    }

    /// Re-reads the config file and flags; applies what can change live (log level,
    /// limits, advertised address) and keeps the running configuration on any error.
    func reload() {
        guard !stopping.withLock({ $0 }) else { return }
        notifier.notify(
            "RELOADING=1", SystemdNotifier.monotonicMicroseconds(), "STATUS=reloading configuration")
        logger.info("reloading configuration", ["config": loader.configFile ?? "(none)"])
        do {
            let running = state.settings
            let applied = ReloadPlan(running: running, loaded: try loader.load())
            for key in applied.restartRequired {
                logger.warning("setting \(key) changed; restart peershared to apply it")
            }
            logSink.level = applied.settings.logLevel
            state.update(settings: applied.settings)
            logger.info("configuration reloaded", ["log_level": "\(applied.settings.logLevel)"])
            bus.publish(
                ControlEvent(
                    type: "daemon.reloaded",
                    data: [
                        "log_level": .string("\(applied.settings.logLevel)"),
                        "restart_required": .array(applied.restartRequired.map(JSON.string)),
                    ]))
        } catch {
            logger.error("configuration reload failed, keeping the running configuration: \(error)")
            bus.publish(ControlEvent(type: "daemon.reload_failed", data: ["message": .string("\(error)")]))
        }
        notifier.notify("READY=1", statusLine)
    }

    /// Stops gracefully: no new clients, requests in flight finish, the socket file goes,
    /// the stores close, the lock is released. Later calls do nothing.
    func stop(reason: String) {
        let first = stopping.withLock { isStopping in
            defer { isStopping = true }
            return !isStopping
        }
        guard first else { return }
        logger.info("stopping", ["reason": reason])
        notifier.notify("STOPPING=1", "STATUS=stopping")
        bus.publish(ControlEvent(type: "daemon.stopping", data: ["reason": .string(reason)]))
        watchdog?.stop()
        control.stop()
        web?.stop()
        listener.close()
        replication.stop()
        thumbnails.stop()
        library.close()
        lock.release()
        logger.info("stopped")
        stopped.update { $0 = true }
    }

    private var statusLine: String {
        "STATUS=ready: peers on \(listener.address), control socket \(state.settings.controlSocket)"
    }

    /// Binds the peer listener; the engine gets its connections once it runs.
    private static func listen(on address: PeerAddress) throws(DaemonError) -> TCPListener {
        do {
            return try TCPListener.bind(host: address.host, port: address.port)
        } catch {
            switch error {
            case .addressInUse:
                throw .listenAddressInUse(address: "\(address)")
            case .cannotListen(_, let reason), .cannotResolve(_, let reason):
                throw .listen(address: "\(address)", reason: reason)
            default:
                throw .listen(address: "\(address)", reason: error.description)
            }
        }
    }

    /// Starts the web gallery when `web_listen` asks for it. A gallery that cannot start
    /// (its port taken) is logged and reported by `peershare ui`; the daemon runs on.
    private static func startGallery(
        _ settings: DaemonSettings, routes: ControlRoutes, services: DaemonServices
    )
        -> WebServer?
    {
        guard let address = settings.webListen else { return nil }
        let limits = settings.limits
        do {
            let listener = try TCPListener.bind(host: address.host, port: address.port)
            let gate = WebGate(base: "http://" + WebGate.browsableAddress(listener), port: listener.port)
            let server = try WebServer(
                listener: listener,
                router: WebRouter(gate: gate, port: listener.port, routes: routes, services: services),
                limits: WebServer.Limits(
                    maxConnections: limits.webMaxConnections, timeoutSeconds: limits.webConnectionTimeout,
                    connectionMemoryBytes: limits.webConnectionMemoryBytes,
                    maxRequestBytes: limits.maxWebRequestBytes),
                logger: services.logger)
            services.gallery.set(.running(gate))
            services.logger.info("web gallery listening", ["web": gate.base])
            return server
        } catch {
            let reason = "cannot listen on \(address) (web_listen): \(error)"
            services.gallery.set(.failed(reason))
            services.logger.error("the web gallery does not run: \(reason)")
            return nil
        }
    }

    private static func makeDirectory(_ path: String) throws(DaemonError) {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .stateDirectory(SystemCallError("mkdir", path, code: EACCES))
        }
    }
}

extension Daemon {
    /// This machine's host name: the name a new person's first device gets.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "device" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty
            ? "device" : String(name.utf8.prefix(DeviceListEntry.maximumNameBytes)) ?? "device"
    }
}
