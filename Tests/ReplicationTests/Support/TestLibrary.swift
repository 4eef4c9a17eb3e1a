import Foundation
import Store

/// A library with a random peer ID in a temp directory of its own, removed with the value.
final class TestLibrary: @unchecked Sendable {
    let directory: TemporaryDirectory
    let peer: PeerID
    let library: Library

    init(peer: PeerID? = nil) throws {
        directory = try TemporaryDirectory()
        self.peer = peer ?? PeerID(digest: (0..<32).map { _ in UInt8.random(in: 0...255) })!
        library = try Library(directory: directory.child("state"), localPeer: self.peer)
    }

    deinit { directory.remove() }

    /// Adds a photo with `bytes` as its data to the private default zone.
    func addPhoto(name: String, bytes: [UInt8], tags: [String]) throws -> String {
        let file = directory.child(UUID().uuidString)
        FileManager.default.createFile(atPath: file, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try library.addPhoto(file: file, name: name, tags: tags)
    }
}
