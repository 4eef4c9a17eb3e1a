import Store
import TestSupport

@testable import Replication

/// Device keys and certificates shared by the signed-set suites (key generation is the slow
/// part), and a helper to sign chains.
enum SignedSetFixtures {
    static let devices: [PeerIdentity] = {
        let temp = try! TestDirectory()
        defer { temp.remove() }
        return (0..<5).map { try! PeerIdentity.loadOrCreate(directory: temp.file("device-\($0)")) }
    }()

    /// The certificate of each fixture device, by ID: what the device lists would give.
    static func certificate(of device: PeerID) -> [UInt8]? {
        devices.first { $0.peerID == device }?.certificateDER
    }

    /// `count` sets of `identity` in `zone`, chained from seq `from` after `prevHash`.
    static func chain(
        of identity: PeerIdentity, in zone: String, count: Int, from seq: UInt64 = 1,
        after prevHash: [UInt8] = SignedSetHeader.noPrevious, tag: String = ""
    ) -> [SignedChangeSet] {
        var sets: [SignedChangeSet] = []
        var previous = prevHash
        for offset in 0..<UInt64(count) {
            let set = SignedChangeSet.sign(
                zone: zone, seq: seq + offset, prevHash: previous,
                body: Array("\(tag) body \(seq + offset) of \(identity.peerID.short)".utf8), by: identity)
            sets.append(set)
            previous = set.hash
        }
        return sets
    }
}
