import FoundationEssentials
import Glibc

/// `manifest.json` of a backup: what it holds, so a restore can check it whole before it
/// writes anything of it into a state directory.
///
/// Written last: a backup without one was cut short and is refused.
struct BackupManifest: Codable, Equatable, Sendable {
    /// One file of the backup (a store, a key), by its path relative to the backup.
    struct File: Codable, Equatable, Sendable {
        let path: String
        let sha256: String
        let size: Int64
        /// Live photos, for a store.
        var photos: Int?
    }

    /// The photo data files under `library/blobs/`, each named by its SHA-256.
    struct Data: Codable, Equatable, Sendable {
        let files: Int
        let bytes: Int64
        /// Data the stores refer to that had not arrived from peers when the backup was made.
        let pending: Int
    }

    static let formatName = "peershare-backup"
    static let currentVersion = 1
    static let fileName = "manifest.json"

    var format = formatName
    var version = currentVersion
    let createdAt: String
    let peerID: String
    let peershareVersion: String
    /// The stores, then the identity's key and certificate and the share-URL key.
    let files: [File]
    let data: Data

    enum CodingKeys: String, CodingKey {
        case format, version, files, data
        case createdAt = "created_at"
        case peerID = "peer_id"
        case peershareVersion = "peershare_version"
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [10]
    }

    static func decode(_ bytes: [UInt8]) throws -> BackupManifest {
        try JSONDecoder().decode(BackupManifest.self, from: FoundationEssentials.Data(bytes))
    }
}
