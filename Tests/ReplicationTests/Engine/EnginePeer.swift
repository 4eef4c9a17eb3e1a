import Foundation
import Glibc
import Store
import Support
import Synchronization
import TestSupport
import Testing

@testable import Replication

/// One peer for engine tests: its own identity, library and engine in its own temp
/// directory, listening on 127.0.0.1 with a free port, with short timers. Events and log
/// lines are recorded for assertions.
final class EnginePeer: @unchecked Sendable {
    let directory: TestDirectory
    let identity: PeerIdentity
    let library: Library
    let configuration: ReplicationConfiguration
    private(set) var engine: ReplicationEngine
    private(set) var address: PeerAddress
    let events = Recorded<ReplicationEvent>()
    let logs = Recorded<String>()
    let name: String

    var peer: PeerID { identity.peerID }
    var priv: LibraryStore { library.privateStore }
    var shared: LibraryStore { library.sharedStore }

    static func fastConfiguration() -> ReplicationConfiguration {
        var configuration = ReplicationConfiguration()
        configuration.tickInterval = .milliseconds(50)
        configuration.reconnectBase = .milliseconds(50)
        configuration.reconnectMax = .milliseconds(500)
        configuration.session.pingInterval = .seconds(1)
        configuration.session.silenceTimeout = .seconds(20)
        configuration.session.dataRetryInterval = .milliseconds(500)
        return configuration
    }

    init(_ name: String, configure: (inout ReplicationConfiguration) -> Void = { _ in }) throws {
        signal(SIGPIPE, SIG_IGN)
        self.name = name
        directory = try TestDirectory()
        identity = try PeerIdentity.loadOrCreate(directory: directory.file("identity"))
        library = try Library(directory: directory.file("state"), localPeer: identity.peerID)
        var configuration = Self.fastConfiguration()
        configure(&configuration)
        self.configuration = configuration
        (engine, address) = (
            ReplicationEngine(library: library, identity: identity), PeerAddress(host: "", port: 0)
        )
        try startEngine()
    }

    deinit {
        engine.stop()
        directory.remove()
    }

    /// Starts a new engine on the same library and identity (after `stopEngine`).
    func startEngine() throws {
        var configuration = self.configuration
        let events = self.events
        let hook = configuration.onEvent
        configuration.onEvent = { event in
            events.append(event)
            hook(event)
        }
        let logs = self.logs
        let name = self.name
        let logger = ReplicationLogger(minimumLevel: .debug) { record in
            logs.append("\(record.level) \(record.peer?.short ?? "-"): \(record.message)")
            if ProcessInfo.processInfo.environment["PEERSHARE_TEST_LOG"] != nil {
                print("[\(name)] \(record.peer?.short ?? "-"): \(record.message)")
            }
        }
        engine = ReplicationEngine(
            library: library, identity: identity, configuration: configuration, logger: logger)
        try engine.start()
        address = try engine.listen(host: "127.0.0.1", port: 0)
    }

    func stopEngine() { engine.stop() }

    /// Writes `bytes` to a file and adds it as a photo of the private default zone.
    func addPhoto(_ name: String, bytes: [UInt8], tags: [String] = []) throws -> String {
        let file = directory.file("import-" + UUID().uuidString)
        FileManager.default.createFile(atPath: file, contents: Data(bytes))
        defer { unlink(file) }
        return try library.addPhoto(file: file, name: name, tags: tags)
    }

    func logged(_ text: String) -> Bool { logs.all.contains { $0.contains(text) } }
}

/// Expects each of `peers` to report itself in sync within 30 s, showing its status and last
/// log lines when it does not.
func expectInSync(_ peers: [EnginePeer]) async {
    for peer in peers {
        let status = await peer.engine.waitForSync(timeout: .seconds(30))
        #expect(status.inSync, "\(peer.name): \(status); \(peer.logs.all.suffix(20))")
    }
}

/// A list appended to from any thread.
final class Recorded<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }

    var all: [Element] { items.withLock { $0 } }
}

/// Shares a new photo of `owner` with `participants` through the store API — the test-only
/// path until accept-by-URL exists — and points each participant's engine at the owner.
func shareZone(
    owner: EnginePeer, with participants: [EnginePeer], photo: String? = nil,
    permission: Permission = .readWrite
) throws -> (zone: String, photo: String) {
    let photo =
        try photo ?? owner.addPhoto("beach.jpg", bytes: Array("pixels of a beach".utf8), tags: ["summer"])
    let zone = try owner.priv.createShare(photo: photo, title: "Holidays", publicPermission: .none)
    for participant in participants {
        try owner.priv.setParticipant(
            zone: zone, peer: participant.peer, permission: permission, status: .accepted)
        try participant.shared.prepareParticipantZone(zone, owner: owner.peer)
    }
    owner.engine.refreshMembership()
    for participant in participants {
        participant.engine.setAddress(owner.address, for: owner.peer)
        participant.engine.refreshMembership()
    }
    return (zone, photo)
}

/// Shares a new photo of `owner` with `peer`, played by the test itself (no engine), reachable
/// at `port`.
func shareZone(owner: EnginePeer, withStandIn peer: PeerID, at port: UInt16) throws {
    let (zone, _) = try shareZone(owner: owner, with: [])
    try owner.priv.setParticipant(zone: zone, peer: peer, permission: .readWrite, status: .accepted)
    owner.engine.setAddress(PeerAddress(host: "127.0.0.1", port: port), for: peer)
    owner.engine.refreshMembership()
}
