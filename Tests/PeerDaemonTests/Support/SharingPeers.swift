import ControlProtocol
import Foundation
import Glibc
import TestSupport

/// One daemon of a sharing test, named as the test speaks of it ("alice", "bob", "carol"),
/// with its own temporary directory; it can be stopped and started again on the same state.
final class SharingPeer: @unchecked Sendable {
    let name: String
    let directory: TestDirectory
    private(set) var daemon: DaemonProcess
    /// The device ID (peer ID), as `id` prints it.
    let id: String
    /// The person ID, as `id` prints it.
    let person: String
    /// Where the daemon's peer listener is bound (`status`'s `listen`), which share URLs carry.
    private(set) var address: String
    private var starts = 1
    /// What every start passes: the config file and the caller's arguments.
    private let arguments: [String]
    /// Whether each start listens on a port of `TestPorts` (not in a network namespace, and
    /// the caller named no listen address of its own): a restart on the same address then
    /// finds its port free.
    private let reservesPorts: Bool
    /// The daemons of the same test, whose logs explain a failure here.
    private var group: [WeakPeer] = []

    /// Starts `peershared` for `name`; `config` is written to a config file it reads; the
    /// daemon runs under `launcher` (`ip netns exec NS`, say) with `arguments` added.
    init(_ name: String, config: String? = nil, arguments extra: [String] = [], launcher: [String] = [])
        throws
    {
        self.name = name
        let directory = try TestDirectory()
        self.directory = directory
        let arguments =
            try (config.map { ["--config", try directory.write("peershared.conf", $0)] } ?? []) + extra
        self.arguments = arguments
        reservesPorts = launcher.isEmpty && !extra.contains("--listen")
        let listen = reservesPorts ? ["--listen", "127.0.0.1:\(try TestPorts.reserve())"] : []
        daemon = try DaemonProcess.startReady(
            in: directory, arguments: arguments + listen, launcher: launcher)
        let status = try daemon.json("status")
        guard let id = status["peer_id"]?.stringValue, let person = status["person_id"]?.stringValue,
            let address = status["listen"]?.stringValue
        else {
            throw HarnessError("\(name): no peer_id, person_id or listen in \(status)")
        }
        self.id = id
        self.person = person
        self.address = address
    }

    /// `peershare --json ARGS…`, which must succeed.
    func json(_ arguments: String...) throws -> JSON {
        try explained(arguments) { try daemon.json(arguments) }
    }

    /// `peershare ARGS…` as a person types it.
    func cli(_ arguments: String...) throws -> CLIResult {
        try explained(arguments) { try daemon.cli(arguments) }
    }

    /// A command that must be refused with one line on stderr; returns code and message.
    func refusal(_ arguments: String...) throws -> ControlError {
        try explained(arguments) { try daemon.refusal(arguments) }
    }

    /// Makes the daemons in `peers` one group: a failure of one shows the logs of all.
    func join(_ peers: [SharingPeer]) { group = peers.map(WeakPeer.init) }

    /// Runs `body`; a failure carries the logs of every daemon of the test, which are gone
    /// once the test's directories are removed.
    private func explained<T>(_ arguments: [String], _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            let members = group.compactMap(\.peer)
            let logs = (members.isEmpty ? [self] : members).map { "--- \($0.name)'s log:\n\($0.log)" }
            throw HarnessError("\(name): peershare \(arguments): \(error)\n" + logs.joined(separator: "\n"))
        }
    }

    /// `sync --wait --timeout 30`: every zone in sync with every reachable member, photo data
    /// included. Every member must have been reached, unless `unreachable` names the peers
    /// that are down (the owner dials its participants, and reports those it cannot reach).
    func syncWait(unreachable: [SharingPeer] = []) throws {
        try explained(["sync", "--wait"]) {
            let json = unreachable.isEmpty ? [] : ["--json"]
            let result = try CLI.run(
                json + ["--socket", daemon.socketPath, "sync", "--wait", "--timeout", "30"], in: directory,
                timeout: .seconds(45))
            guard result.status == 0 else { throw HarnessError("sync --wait failed: \(result)") }
            if unreachable.isEmpty {
                guard result.stdout == "in sync\n" else {
                    throw HarnessError("sync --wait answered \(result)")
                }
                return
            }
            let answer = JSONLine.decode(Data(result.stdout.utf8))
            let named = answer?["unreachable"]?.arrayValue?.compactMap { $0["peer_id"]?.stringValue } ?? []
            guard answer?["in_sync"] == true, Set(named) == Set(unreachable.map(\.id)) else {
                throw HarnessError("sync --wait answered \(result)")
            }
        }
    }

    /// Adds a photo made of `bytes` under `name` and returns its ID.
    func addPhoto(_ name: String, bytes: [UInt8], tags: [String] = []) throws -> String {
        let file = try directory.write(name, bytes: bytes)
        let arguments = ["photo", "add", file] + tags.flatMap { ["--tag", $0] }
        let added = try explained(arguments) { try daemon.json(arguments) }
        guard let id = added["id"]?.stringValue else { throw HarnessError("photo add answered \(added)") }
        return id
    }

    /// What a person sees: each photo's name with its tag names, sorted; only the photos of
    /// `share` when given.
    func sees(share: String? = nil) throws -> [String: [String]] {
        let arguments = ["photo", "list"] + (share.map { ["--share", $0] } ?? [])
        let photos = try explained(arguments) { try daemon.json(arguments) }
        var seen: [String: [String]] = [:]
        for photo in photos.arrayValue ?? [] {
            let tags = photo["tags"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            seen[photo["name"]?.stringValue ?? "?"] = tags.sorted()
        }
        return seen
    }

    /// Everything this peer shows a person: photos, tags, history and shares.
    func state() throws -> JSON {
        var snapshot = try explained(["photo/tag list", "history"]) { try daemon.snapshot() }
        if case .object(var members) = snapshot {
            members["shares"] = try json("share", "list")
            snapshot = .object(members)
        }
        return snapshot
    }

    /// This peer's view of one share (`share show --json`).
    func share(_ share: String) throws -> JSON { try json("share", "show", share) }

    /// `share list` without the shares that ended for this peer (listed until dismissed).
    func liveShares() throws -> [JSON] {
        try (json("share", "list").arrayValue ?? []).filter { $0["ended"] == nil }
    }

    /// The status of `peer` in `share` as this peer records it, or nil if it is not listed.
    func participantStatus(_ peer: SharingPeer, in share: String) throws -> String? {
        try self.share(share)["participants"]?.arrayValue?.first { $0["peer_id"]?.stringValue == peer.id }?[
            "status"]?.stringValue
    }

    /// SIGTERM; the daemon must exit 0.
    func stop() throws { try daemon.stop() }

    /// SIGKILL, as a crash or a power cut ends it.
    func kill() throws { try daemon.kill() }

    /// Starts the daemon again on the same state directory and socket; on the same peer
    /// address too with `sameAddress` (as a daemon with a configured port), else on a new port.
    func start(sameAddress: Bool = false) throws {
        starts += 1
        // The harness's own `--listen 127.0.0.1:0` comes first; the later flag wins.
        var listen = sameAddress ? ["--listen", address] : []
        if !sameAddress && reservesPorts { listen = ["--listen", "127.0.0.1:\(try TestPorts.reserve())"] }
        daemon = try DaemonProcess(
            in: directory, arguments: arguments + listen, stateDirectory: daemon.stateDirectory,
            socketPath: daemon.socketPath, label: "peershared-\(starts)", launcher: daemon.launcher)
        try daemon.waitUntilReady()
        let status = try daemon.json("status")
        address = status["listen"]?.stringValue ?? address
    }

    /// The daemon's log (stderr), all of it.
    var log: String { daemon.stderr }
}

/// A peer of the same test, not kept alive by the others.
private struct WeakPeer {
    weak var peer: SharingPeer?
    init(_ peer: SharingPeer) { self.peer = peer }
}

/// The three daemons of a sharing test: alice owns, bob and carol take part.
struct SharingPeers {
    let alice: SharingPeer
    let bob: SharingPeer
    let carol: SharingPeer

    var everyone: [SharingPeer] { [alice, bob, carol] }

    /// `configs`: a config file's text by daemon name, for those that need one.
    init(configs: [String: String] = [:]) throws {
        alice = try SharingPeer("alice", config: configs["alice"])
        bob = try SharingPeer("bob", config: configs["bob"])
        carol = try SharingPeer("carol", config: configs["carol"])
        for peer in everyone { peer.join(everyone) }
    }

    /// Waits until every change made so far has reached everyone: the participants push to
    /// the owner, the owner relays, the participants take what was relayed.
    func settle() throws {
        for peer in [bob, carol, alice, bob, carol] { try peer.syncWait() }
    }

    /// `settleAddresses(of:among:)` for the three.
    func settleAddresses(of share: String) throws {
        try PeerDaemonTests.settleAddresses(of: share, among: everyone)
        try settle()
    }

    /// Stops every daemon with SIGTERM; each must exit 0.
    func stop() throws {
        for peer in everyone { try peer.stop() }
    }

    /// What each of the three sees of `share`, by name.
    func views(share: String) throws -> [String: [String: [String]]] {
        var result: [String: [String: [String]]] = [:]
        for peer in everyone { result[peer.name] = try peer.sees(share: share) }
        return result
    }
}

/// A share as a test sets it up: the zone, its URL and the first photo's ID and bytes.
struct SharedPhoto {
    let share: String
    let url: String
    let photo: String
    let bytes: [UInt8]
}

extension SharingPeers {
    /// Alice adds `beach.jpg` tagged "summer" and shares it privately (public `none`); bob is
    /// invited read-write and carol `carolPermission`; both accept the URL, and everything
    /// is in sync when it returns.
    func shareBeach(carolPermission: String = "read-only", size: Int = 4096) throws -> SharedPhoto {
        let bytes = randomBytes(size)
        let photo = try alice.addPhoto("beach.jpg", bytes: bytes, tags: ["summer"])
        let created = try alice.json("share", "create", photo, "--title", "Holidays")
        guard let share = created["share"]?.stringValue, let url = created["url"]?.stringValue else {
            throw HarnessError("share create answered \(created)")
        }
        _ = try alice.json("share", "invite", share, bob.id, "--permission", "read-write")
        _ = try alice.json("share", "invite", share, carol.id, "--permission", carolPermission)
        for peer in [bob, carol] {
            let accepted = try peer.json("accept", url)
            guard accepted["share"]?.stringValue == share else {
                throw HarnessError("\(peer.name) accepted \(accepted)")
            }
        }
        try settle()
        try settleAddresses(of: share)
        return SharedPhoto(share: share, url: url, photo: photo, bytes: bytes)
    }
}

/// Waits until every peer's record of each accepted participant of `share` says where it
/// listens (the owner writes it when the participant connects, and the records reach the
/// others: the mesh dials by them), then until each is in sync: a test comparing states
/// before and after starts once these writes are done.
func settleAddresses(of share: String, among peers: [SharingPeer]) throws {
    try waitUntil("every participant's address in every record of share \(share)") {
        try peers.allSatisfy { peer in
            let holds = try (peer.json("share", "list").arrayValue ?? []).contains {
                $0["share"]?.stringValue == share
            }
            return try !holds
                || (peer.share(share)["participants"]?.arrayValue ?? []).allSatisfy {
                    $0["status"] != "accepted" || $0["address"]?.stringValue != nil
                }
        }
    }
}
