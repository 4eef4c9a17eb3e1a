import Foundation
import Store
import Support

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
        ids: IDSource = IDSource(), limits: StoreLimits = StoreLimits()
    ) throws {
        self.peer = peer
        library = try Library(
            directory: dir.path + "/state", localPeer: peer, limits: limits, clock: clock, ids: ids)
    }

    /// The blob directory of one store.
    func blobRoot(_ kind: StoreKind) -> String { dir.path + "/state/blobs/" + kind.rawValue }

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

extension SharedPair {
    /// Another peer invited with `permission`, accepted, and holding the zone as it is now.
    func addParticipant(permission: Permission) throws -> TestLibrary {
        let other = try TestLibrary()
        try owner.priv.setParticipant(zone: zone, peer: other.peer, permission: permission, status: .accepted)
        try other.shared.prepareParticipantZone(zone, owner: owner.peer)
        try sync(zone, from: owner.priv, to: other.shared)
        try sync(zone, from: owner.priv, to: participant.shared)
        return other
    }

    /// Moves a new photo of the owner into the share and sends it to the participant.
    func addSharedPhoto(_ name: String, bytes: [UInt8] = Array("more pixels".utf8)) throws -> String {
        let id = try owner.addPhoto(name, bytes: bytes)
        try owner.priv.addToShare(photo: id, zone: zone)
        try sync(zone, from: owner.priv, to: participant.shared)
        return id
    }
}

/// Every regular file under `root`, relative to it, sorted.
func files(under root: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    var result: [String] = []
    while let relative = walker.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            result.append(relative)
        }
    }
    return result.sorted()
}

/// The lowercase hex SHA-256 of `bytes`, computed independently of any store.
func sha256Hex(_ bytes: [UInt8]) -> String { SHA256Hasher.hex(SHA256Hasher.digest(bytes)) }

/// Deterministic pseudo-random bytes.
func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
        withUnsafeBytes(of: rng.next()) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
    }
    return bytes
}

/// A stamp `aheadMilliseconds` past the wall clock, so that it beats every stamp a store
/// has written so far (and stays within what a store accepts as plausible).
func stampAhead(of peer: PeerID, by aheadMilliseconds: UInt64 = 1_000) -> Stamp {
    Stamp(hlc: (HybridLogicalClock.wallMilliseconds() + aheadMilliseconds) << 16, peer: peer)
}
