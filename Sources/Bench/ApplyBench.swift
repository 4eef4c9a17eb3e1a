import Foundation
import Replication
import Store

/// Changes applied per second at a receiver: 20,000 photos with a rating and a tag link
/// each, authored by a participant in chained batches of about 10,000 field changes, each
/// batch a signed set of the author's chain as members relay them; timed: decoding each
/// signed set, checking its body hash and signature, decoding its body and applying it (one
/// SQLite transaction each).
struct ApplyBench {
    let directory: String
    let photos = 20_000

    func run() throws -> [BenchResult] {
        let identity = try PeerIdentity.loadOrCreate(directory: directory + "-identity")
        let zone = try BenchZone(directory: directory, participant: identity.peerID)
        let author = zone.participant
        var hlc = benchStartHLC()
        func stamp() -> Stamp {
            hlc += 1
            return Stamp(hlc: hlc, peer: author)
        }
        var objects = (0..<100).map { benchTag($0, stamp()) }
        for p in 0..<photos {
            objects += benchPhoto(p, hash: benchHash(p), tag: p % 100, stamp())
        }
        var batches: [[ObjectChange]] = [[]]
        var count = 0
        for object in objects {
            if count >= 10_000 {
                batches.append([])
                count = 0
            }
            batches[batches.count - 1].append(object)
            count += object.fields.count
        }
        let sets = try zone.chained(batches, startHLC: hlc)
        var signedSets: [[UInt8]] = []
        for set in sets {
            signedSets.append(
                SignedChangeSet.sign(
                    zone: zone.zone, seq: UInt64(signedSets.count + 1),
                    prevHash: signedSets.isEmpty
                        ? SignedSetHeader.noPrevious
                        : try SignedChangeSet(decoding: signedSets.last!, maximumBodyBytes: 64 << 20).hash,
                    body: ChangeSetCodec.encode(set), by: identity
                ).encoded)
        }
        let keys = PublicKeyCache()
        let certificate = identity.certificateDER
        let total = sets.reduce(0) { $0 + $1.changeCount }
        var applied = 0
        let cpu = processCPUSeconds()
        let seconds = try measure {
            for (bytes, chained) in zip(signedSets, sets) {
                let signed = try SignedChangeSet(decoding: bytes, maximumBodyBytes: 64 << 20)
                try signed.verify(zone: zone.zone, keys: keys) { _ in certificate }
                var set = try ChangeSetCodec.decode(signed.body)
                // The relay's `since` and `until`: what the chain up to this set vouches for.
                set = ChangeSet(
                    zone: set.zone, since: chained.since, until: chained.until, objects: set.objects)
                let report = try zone.library.privateStore.apply(set, from: author)
                applied += report.applied
            }
        }
        let used = processCPUSeconds() - cpu
        guard applied == total else { fatalError("applied \(applied) of \(total) changes") }
        let bytes = signedSets.reduce(0) { $0 + $1.count }
        return [
            BenchResult(
                name:
                    "changes applied at the receiver (signed sets: signature checked, decoded, applied; \(total) changes)",
                unit: "changes/s",
                value: Double(total) / seconds, target: "≥ 250,000 changes/s"),
            BenchResult(
                name: "changes applied at the receiver: per CPU-second (all threads, the checkpointer's too)",
                unit: "changes/s", value: Double(total) / used, target: "-"),
            BenchResult(
                name: "signed-set wire size", unit: "bytes/change", value: Double(bytes) / Double(total),
                target: "-"),
        ]
    }
}
