import Foundation
import Store

/// Deduplicating a zone of 100,000 tags: 50,000 names, each on two tags, each tag on its
/// own photo. The zone is received by a read-only participant (which shows the canonical
/// result but never cleans up), so the duplicates are all still there; then the full pass —
/// every tag's winner recomputed and the 50,000 losers merged (their links stay and count
/// for the winner) — is timed as one transaction.
struct DedupBench {
    let directory: String
    let names = 50_000

    func run() throws -> [BenchResult] {
        let owner = peer(0xCD)
        let me = peer(0xAB)
        let library = try Library(directory: directory, localPeer: me)
        let store = library.sharedStore
        let zone = uuid(99, 1)
        try store.prepareParticipantZone(zone, owner: owner)
        var hlc = benchStartHLC()
        let membership = Stamp(hlc: hlc, peer: owner)
        var objects: [ObjectChange] = [
            ObjectChange(
                entity: .share, id: zone,
                fields: [
                    FieldChange(field: ShareField.owner, value: .text(owner.description), stamp: membership),
                    FieldChange(field: ShareField.title, value: .text("bench"), stamp: membership),
                    FieldChange(field: ShareField.publicPermission, value: .text("none"), stamp: membership),
                ]),
            ObjectChange(
                entity: .participant, id: LibraryStore.participantID(zone: zone, peer: me),
                fields: [
                    FieldChange(
                        field: ParticipantField.peer, value: .text(me.description), stamp: membership),
                    FieldChange(
                        field: ParticipantField.permission, value: .text("read-only"), stamp: membership),
                    FieldChange(field: ParticipantField.status, value: .text("accepted"), stamp: membership),
                ]),
        ]
        // A photo is complete only with its data reference (the store refuses one without).
        let dataHash = String(repeating: "ab", count: 32)
        for n in 0..<names {
            hlc += 1
            let s = Stamp(hlc: hlc, peer: owner)
            for copy in 0..<2 {
                let tag = uuid(UInt8(10 + copy), n)
                let photo = uuid(UInt8(20 + copy), n)
                objects.append(
                    ObjectChange(
                        entity: .tag, id: tag,
                        fields: [
                            FieldChange(
                                field: TagField.uuid, value: .text(uuid(UInt8(30 + copy), n)), stamp: s),
                            FieldChange(field: TagField.name, value: .text("name-\(n)"), stamp: s),
                        ]))
                objects.append(
                    ObjectChange(
                        entity: .photo, id: photo,
                        fields: [
                            FieldChange(field: PhotoField.name, value: .text("p"), stamp: s),
                            FieldChange(
                                field: PhotoField.uniqueName, value: .text(uuid(UInt8(40 + copy), n)),
                                stamp: s),
                            FieldChange(field: PhotoField.createdAt, value: .integer(Int64(n)), stamp: s),
                            FieldChange(field: PhotoField.dataHash, value: .text(dataHash), stamp: s),
                            FieldChange(field: PhotoField.dataSize, value: .integer(1), stamp: s),
                        ]))
                objects.append(
                    ObjectChange(
                        entity: .link, id: LibraryStore.linkID(photo: photo, tag: tag),
                        fields: [
                            FieldChange(field: LinkField.linked, value: .integer(1), stamp: s)
                        ]))
            }
        }
        let set = ChangeSet(
            zone: zone, since: VectorClock(), until: VectorClock([owner: hlc]), objects: objects)
        var report = ApplyReport()
        let receive = try measure { report = try store.apply(set, from: owner) }
        guard report.refused.isEmpty, report.deduplicated == 0 else {
            fatalError("unexpected apply: \(report)")
        }
        // The receive's log is copied back in the background; not part of the dedup.
        try store.checkpoint()
        var written = 0
        let dedup = try measure { written = try store.deduplicateAll(zone: zone) }
        let tags = try store.tags(zone: zone)
        guard tags.count == names, written == names, tags.allSatisfy({ $0.photoCount == 2 }) else {
            fatalError("dedup left \(tags.count) tags after writing \(written) objects")
        }
        return [
            BenchResult(
                name: "receive a zone of 100,000 tags + 100,000 photos + 100,000 links (one change set)",
                unit: "s",
                value: receive, target: "-"),
            BenchResult(
                name: "deduplicate a zone of 100,000 tags (all winners + 50,000 merges)",
                unit: "s",
                value: dedup, target: "≤ 0.5 s"),
        ]
    }
}
