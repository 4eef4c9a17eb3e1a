import Foundation
import Store

/// A temporary directory removed when the value goes away: each test its own.
final class TempDir: @unchecked Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "peershare-test-" + UUID().uuidString.lowercased()
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a file in the directory and returns its path.
    func file(_ name: String, bytes: [UInt8]) -> String {
        let file = path + "/" + name
        FileManager.default.createFile(atPath: file, contents: Data(bytes))
        return file
    }
}

/// A random peer identity for tests (the digest of nothing in particular).
func randomPeer<G: RandomNumberGenerator>(using rng: inout G) -> PeerID {
    PeerID(digest: (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })!
}

func randomPeer() -> PeerID {
    var rng = SystemRandomNumberGenerator()
    return randomPeer(using: &rng)
}

/// A library of its own in its own temp directory.
final class TestLibrary: @unchecked Sendable {
    let dir = TempDir()
    let peer: PeerID
    let library: Library

    init(
        peer: PeerID = randomPeer(), clock: HybridLogicalClock = HybridLogicalClock(),
        ids: IDSource = IDSource()
    ) throws {
        self.peer = peer
        library = try Library(directory: dir.path + "/state", localPeer: peer, clock: clock, ids: ids)
    }

    var priv: LibraryStore { library.privateStore }
    var shared: LibraryStore { library.sharedStore }

    /// Adds a photo with the given bytes into the default zone.
    func addPhoto(_ name: String, bytes: [UInt8] = Array("pixels".utf8), tags: [String] = []) throws -> String
    {
        let file = dir.file(UUID().uuidString, bytes: bytes)
        return try library.addPhoto(file: file, name: name, tags: tags)
    }
}

/// Sends everything `from` has of `zone` that `to` lacks, as the sync session will.
@discardableResult
func sync(_ zone: String, from: LibraryStore, to: LibraryStore) throws -> [ApplyReport] {
    let since = try to.clock(of: zone)
    return try from.changes(zone: zone, since: since).map { try to.apply($0, from: from.localPeer) }
}

/// An owner with one shared photo and a participant that has accepted it.
struct SharedPair {
    let owner: TestLibrary
    let participant: TestLibrary
    let zone: String
    let photo: String

    init(permission: Permission = .readWrite) throws {
        owner = try TestLibrary()
        participant = try TestLibrary()
        photo = try owner.addPhoto("beach.jpg", tags: ["summer"])
        zone = try owner.priv.createShare(photo: photo, title: "Holidays", publicPermission: .none)
        try owner.priv.setParticipant(
            zone: zone, peer: participant.peer, permission: permission, status: .accepted)
        try participant.shared.prepareParticipantZone(zone, owner: owner.peer)
        try sync(zone, from: owner.priv, to: participant.shared)
    }
}
