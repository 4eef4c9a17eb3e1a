import Foundation
import Replication
import Store
import Support

/// What signing change sets costs (issue 12), on the change-set codec's real bytes: a set of
/// 10,000 tag and link changes (the apply benchmark's batch) and a set of one link change
/// (a single tag edit pushed at once). Per set: SHA-256 of the body, signing the header,
/// checking the signature with a cached key and with the certificate parsed each time, and
/// a whole `SignedChangeSet` encoded, decoded and checked. A signature over the whole body
/// instead of the header is measured for comparison.
struct SignatureBench {
    let directory: String

    func run() throws -> [BenchResult] {
        let identity = try PeerIdentity.loadOrCreate(directory: directory + "/identity")
        return figures(changes: 10_000, rounds: 500, identity: identity)
            + figures(changes: 1, rounds: 20_000, identity: identity)
    }

    /// The codec's bytes for `changes` changes: 100 tags (two fields each) then photo↔tag
    /// links, or a single link.
    func body(changes: Int, author: PeerID) -> [UInt8] {
        var hlc = benchStartHLC()
        func stamp() -> Stamp {
            hlc += 1
            return Stamp(hlc: hlc, peer: author)
        }
        var objects: [ObjectChange] = []
        let tags = changes >= 1_000 ? 100 : 0
        for t in 0..<tags {
            let s = stamp()
            objects.append(
                ObjectChange(
                    entity: .tag, id: uuid(1, t),
                    fields: [
                        FieldChange(field: TagField.uuid, value: .text(uuid(2, t)), stamp: s),
                        FieldChange(field: TagField.name, value: .text("tag-\(t)"), stamp: s),
                    ]))
        }
        for p in 0..<(changes - 2 * tags) {
            objects.append(
                ObjectChange(
                    entity: .link, id: LibraryStore.linkID(photo: uuid(3, p), tag: uuid(1, p % 100)),
                    fields: [FieldChange(field: LinkField.linked, value: .integer(1), stamp: stamp())]))
        }
        let set = ChangeSet(zone: "bench-zone", since: VectorClock(), until: VectorClock(), objects: objects)
        precondition(set.changeCount == changes)
        return ChangeSetCodec.encode(set)
    }

    func figures(changes: Int, rounds: Int, identity: PeerIdentity) -> [BenchResult] {
        let body = body(changes: changes, author: identity.peerID)
        let label =
            changes == 1
            ? "set of 1 change (\(body.count) B)" : "set of 10,000 changes (\(body.count / 1000) KB)"
        let certificates: (PeerID) -> [UInt8]? = { _ in identity.certificateDER }
        var digest: [UInt8] = []
        let hash = measure { for _ in 0..<rounds { digest = SHA256Hasher.digest(body) } }
        let set = SignedChangeSet.sign(
            zone: "bench-zone", seq: 2, prevHash: digest, body: body, by: identity)
        let message = set.header.signedMessage
        var signature: [UInt8] = []
        let sign = measure { for _ in 0..<rounds { signature = Signature.sign(message, with: identity) } }
        let keys = PublicKeyCache()
        var ok = signature == set.header.signature
        let cached = measure {
            for _ in 0..<rounds {
                ok =
                    ok && keys.verify(signature, of: message, by: identity.peerID, certificates: certificates)
            }
        }
        let parsed = measure {
            for _ in 0..<rounds {
                ok = ok && Signature.verify(signature, of: message, certificateDER: identity.certificateDER)
            }
        }
        var whole = 0.0
        do {
            whole = try measure {
                for _ in 0..<rounds {
                    let received = try SignedChangeSet(decoding: set.encoded, maximumBodyBytes: 64 << 20)
                    try received.verify(zone: "bench-zone", keys: keys, certificates: certificates)
                }
            }
        } catch {
            fatalError("a set signed here was refused: \(error)")
        }
        let overBody = Signature.sign(body, with: identity)
        let bodyRounds = max(rounds / 10, 1)
        let verifyBody = measure {
            for _ in 0..<bodyRounds {
                ok = ok && Signature.verify(overBody, of: body, certificateDER: identity.certificateDER)
            }
        }
        guard ok else { fatalError("a signature made here did not verify") }
        func us(_ seconds: Double, _ count: Int = rounds) -> Double { seconds / Double(count) * 1e6 }
        return [
            BenchResult(name: "\(label): SHA-256 of the body", unit: "µs", value: us(hash), target: "-"),
            BenchResult(
                name: "\(label): sign the header (Ed25519)", unit: "µs", value: us(sign), target: "-"),
            BenchResult(
                name: "\(label): check the signature, cached key", unit: "µs", value: us(cached), target: "-"),
            BenchResult(
                name: "\(label): check the signature, certificate parsed each time", unit: "µs",
                value: us(parsed), target: "-"),
            BenchResult(
                name: "\(label): encode + decode + check a SignedChangeSet", unit: "µs", value: us(whole),
                target: "-"),
            BenchResult(
                name: "\(label): receiver's cost per change (encode + decode + check)", unit: "ns",
                value: us(whole) * 1000 / Double(changes),
                target: changes == 1 ? "-" : "≪ 4,000 ns (250,000 changes/s)"),
            BenchResult(
                name: "\(label): check a signature over the whole body instead (comparison)", unit: "µs",
                value: us(verifyBody, bodyRounds), target: "-"),
        ]
    }
}
