import Foundation
import Replication
import Store

/// `peershare-bench --fill-share=STATE --zone=ZONE [--photos=N] [--tags=T] [--set-photos=K]`:
/// fills a share (zone) the daemon of state directory STATE owns (created beforehand through
/// the daemon, which is stopped) with N photos (all on one shared 1 KB blob, no thumbnails),
/// each with a rating (1…5) and one or two tags out of T tag names (every other photo has
/// two), so that scripts/bench can time a participant joining a zone of 100,000 photos
/// (metadata).
///
/// The objects are the owner's own changes, as if it had made them: change sets authored by
/// the local peer, each carried by a signed set of the owner's chain in the zone (the next
/// seq after the chain the daemon left), applied through `LibraryStore.apply` with that
/// signed set, K photos per set (default 1: one set per photo, its tags and its rating, as a
/// `photo.add` with tags makes them; a tag is created in the set of the first photo that
/// carries it). So the joiner receives what a real owner's zone holds: the delta and the
/// owner's signed sets. Prints seconds taken.
enum FillShare {
    static func run(state: String, zone: String, photos: Int, tags: Int, setPhotos: Int) throws {
        let identity = try PeerIdentity.loadOrCreate(directory: state + "/identity")
        let me = identity.peerID
        let library = try Library(directory: state + "/library", localPeer: me)
        defer { library.close() }
        let store = library.privateStore
        guard try store.share(zone) != nil else {
            throw StoreError.invalid("the private store of \(state) owns no share \(zone)")
        }
        let data = try store.blobs.store([UInt8](repeating: 0xA5, count: 1024))
        var top = try store.signedSetTops(zone: zone)[me]
        var hlc = max(benchStartHLC(), (try store.clock(of: zone))[me]) + 1
        let created = Int64(Date().timeIntervalSince1970 * 1000)
        var createdTags = Set<Int>()
        var sets = 0
        var changes = 0
        var links = 0
        /// Photo `p` with its rating and tag links, and the tags it is the first to carry.
        func objects(ofPhoto p: Int, _ s: Stamp) -> [ObjectChange] {
            let photo = uuid(0x51, p)
            var objects = [
                ObjectChange(
                    entity: .photo, id: photo,
                    fields: [
                        FieldChange(field: PhotoField.name, value: .text("IMG_\(p).jpg"), stamp: s),
                        FieldChange(field: PhotoField.uniqueName, value: .text(uuid(0x52, p)), stamp: s),
                        FieldChange(
                            field: PhotoField.createdAt, value: .integer(created + Int64(p)), stamp: s),
                        FieldChange(field: PhotoField.dataHash, value: .text(data.hash), stamp: s),
                        FieldChange(field: PhotoField.dataSize, value: .integer(data.size), stamp: s),
                    ]),
                ObjectChange(
                    entity: .rating, id: uuid(0x53, p),
                    fields: [
                        FieldChange(field: RatingField.photo, value: .text(photo), stamp: s),
                        FieldChange(field: RatingField.value, value: .integer(Int64(p % 5 + 1)), stamp: s),
                    ]),
            ]
            let carried = p % 2 == 0 ? [p % tags, (p / 2 + tags / 2) % tags] : [p % tags]
            for t in Set(carried).sorted() {
                if createdTags.insert(t).inserted {
                    objects.append(
                        ObjectChange(
                            entity: .tag, id: uuid(0x54, t),
                            fields: [
                                FieldChange(field: TagField.uuid, value: .text(uuid(0x55, t)), stamp: s),
                                FieldChange(field: TagField.name, value: .text("tag-\(t)"), stamp: s),
                            ]))
                }
                links += 1
                objects.append(
                    ObjectChange(
                        entity: .link, id: LibraryStore.linkID(photo: photo, tag: uuid(0x54, t)),
                        fields: [FieldChange(field: LinkField.linked, value: .integer(1), stamp: s)]))
            }
            return objects
        }
        let seconds = try measure {
            var first = 0
            while first < photos {
                let last = min(first + max(setPhotos, 1), photos)
                hlc += 1
                let s = Stamp(hlc: hlc, peer: me)
                let set = ChangeSet(
                    zone: zone, since: VectorClock(), until: VectorClock([me: hlc]),
                    objects: (first..<last).flatMap { objects(ofPhoto: $0, s) })
                let seq = (top?.seq ?? 0) + 1
                let signed = SignedChangeSet.sign(
                    zone: zone, seq: seq, prevHash: top?.hash ?? SignedSetHeader.noPrevious,
                    body: ChangeSetCodec.encode(set), by: identity)
                let row = SignedSetRow(
                    author: me, seq: seq, hash: signed.hash, hlc: hlc, bytes: signed.encoded)
                let report = try store.apply(set, from: me, signed: row)
                guard report.refused.isEmpty, report.applied == set.changeCount else {
                    throw StoreError.invalid(
                        "the store took \(report.applied) of \(set.changeCount) changes: \(report.refused)")
                }
                top = (seq, signed.hash)
                sets += 1
                changes += set.changeCount
                first = last
            }
        }
        try store.checkpoint()
        // One line scripts/bench-daemon.py reads.
        print(
            "filled zone \(zone): \(photos) photos, \(photos) ratings, \(links) tag links, "
                + "\(createdTags.count) tags, \(changes) field changes, \(sets) signed sets, "
                + String(format: "%.1f s", seconds))
    }
}
