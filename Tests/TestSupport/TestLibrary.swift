import Foundation
import Store

/// A library of its own, with a random peer ID (unless given), in a test directory of its
/// own that goes with it.
public final class TestLibrary: @unchecked Sendable {
    public let directory: TestDirectory
    public let peer: PeerID
    public let library: Library

    public init(
        peer: PeerID = randomPeer(), clock: HybridLogicalClock = HybridLogicalClock(),
        ids: IDSource = IDSource(), limits: StoreLimits = StoreLimits()
    ) throws {
        directory = try TestDirectory()
        self.peer = peer
        library = try Library(
            directory: directory.file("state"), localPeer: peer, limits: limits, clock: clock, ids: ids)
    }

    public var priv: LibraryStore { library.privateStore }
    public var shared: LibraryStore { library.sharedStore }

    /// Closes the library and opens its state directory again, as a restarted daemon does
    /// (migrating a store an earlier version wrote); the caller closes what it returns.
    public func reopen() throws -> Library {
        library.close()
        return try Library(directory: directory.file("state"), localPeer: peer)
    }

    /// The blob directory of one store.
    public func blobRoot(_ kind: StoreKind) -> String { directory.file("state/blobs/" + kind.rawValue) }

    /// Adds a photo with `bytes` as its data to the private default zone.
    public func addPhoto(_ name: String, bytes: [UInt8] = Array("pixels".utf8), tags: [String] = []) throws
        -> String
    {
        let file = try directory.write(UUID().uuidString, bytes: bytes)
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try library.addPhoto(file: file, name: name, tags: tags)
    }
}

/// A random peer identity (the digest of nothing in particular).
public func randomPeer<G: RandomNumberGenerator>(using rng: inout G) -> PeerID {
    PeerID(digest: (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })!
}

/// A random peer identity from the system's generator.
public func randomPeer() -> PeerID {
    var rng = SystemRandomNumberGenerator()
    return randomPeer(using: &rng)
}
