import Foundation
import Store

/// One measured figure of one run.
struct BenchResult {
    let name: String
    let unit: String
    let value: Double
    let target: String
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU time (user + system) of this process so far, all threads.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

func measure(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicSeconds()
    try body()
    return monotonicSeconds() - start
}

/// A hybrid-clock value at the wall clock's now: stamps far from now are refused as
/// coming from a clock running ahead (`max_clock_ahead_seconds`).
func benchStartHLC() -> UInt64 {
    UInt64(Date().timeIntervalSince1970 * 1000) << 16
}

func peer(_ n: UInt8) -> PeerID { PeerID(digest: [UInt8](repeating: n, count: 32))! }

/// A deterministic lowercase UUID for the n-th object of a kind, as scattered as the random
/// (version 4) IDs real objects get: its first 64 bits are a mix of `kind` and `n`
/// (SplitMix64's finalizer, a bijection), its last 48 bits `n`, so IDs are unique and their
/// order has nothing to do with `n`. Numbered in order instead (as the benches were until
/// issue 17's session 5), every new object went at the end of the ID indexes, which real
/// objects never do: a 100,000-photo join took 4.8 s that way against 13.5 s this way.
func uuid(_ kind: UInt8, _ n: Int) -> String {
    let mixed = Array(mixedHex(UInt64(kind) << 56 ^ UInt64(n)))
    let counter = String(n, radix: 16)
    return String(mixed[0..<8]) + "-" + String(mixed[8..<12]) + "-4" + String(mixed[12..<15]) + "-8"
        + String(mixed[15]) + "00-" + String(repeating: "0", count: 12 - counter.count) + counter
}

/// SplitMix64's finalizer of `seed` as 16 lowercase hex digits: a bijection that scatters
/// neighbouring seeds.
private func mixedHex(_ seed: UInt64) -> String {
    var z = seed &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    let hex = String(z, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

/// A deterministic data hash for photo `n`, scattered like the SHA-256 of real photos (64
/// hex digits, distinct for every `n`). Until issue 17's session 6 the benches gave photos
/// hashes in order, or a few hundred hashes in all, so the index of live photos by hash
/// took every new photo at one of a few places, which real data never does.
func benchHash(_ n: Int) -> String {
    (0..<4).map { mixedHex(UInt64(0xDA7A) << 48 ^ UInt64($0) << 40 ^ UInt64(n)) }.joined()
}

/// Tag `t` of a bench zone, made with stamp `s`.
func benchTag(_ t: Int, _ s: Stamp) -> ObjectChange {
    ObjectChange(
        entity: .tag, id: uuid(1, t),
        fields: [
            FieldChange(field: TagField.uuid, value: .text(uuid(2, t)), stamp: s),
            FieldChange(field: TagField.name, value: .text("tag-\(t)"), stamp: s),
        ])
}

/// Photo `p` of a bench zone with data `hash`, a rating and a link to tag `tag`, all made
/// with stamp `s`.
func benchPhoto(_ p: Int, hash: String, tag: Int, _ s: Stamp) -> [ObjectChange] {
    let id = uuid(3, p)
    return [
        ObjectChange(
            entity: .photo, id: id,
            fields: [
                FieldChange(field: PhotoField.name, value: .text("photo \(p).jpg"), stamp: s),
                FieldChange(field: PhotoField.uniqueName, value: .text(uuid(4, p)), stamp: s),
                FieldChange(field: PhotoField.createdAt, value: .integer(Int64(p)), stamp: s),
                FieldChange(field: PhotoField.dataHash, value: .text(hash), stamp: s),
                FieldChange(field: PhotoField.dataSize, value: .integer(100_000), stamp: s),
            ]),
        ObjectChange(
            entity: .rating, id: uuid(5, p),
            fields: [
                FieldChange(field: RatingField.photo, value: .text(id), stamp: s),
                FieldChange(field: RatingField.value, value: .integer(Int64(p % 5 + 1)), stamp: s),
            ]),
        ObjectChange(
            entity: .link, id: LibraryStore.linkID(photo: id, tag: uuid(1, tag)),
            fields: [FieldChange(field: LinkField.linked, value: .integer(1), stamp: s)]),
    ]
}

/// An owner's library with one share in which `participant` may write.
struct BenchZone {
    let library: Library
    let zone: String
    let participant: PeerID

    /// `participant` defaults to a made-up device (no key): a bench that signs sets passes
    /// a real identity's.
    init(directory: String, participant: PeerID = peer(0xAB)) throws {
        self.participant = participant
        library = try Library(directory: directory, localPeer: peer(0xCD))
        let store = library.privateStore
        let data = try store.blobs.store(Array("seed".utf8))
        let photo = try store.addPhoto(name: "seed", data: data)
        zone = try store.createShare(photo: photo, title: "bench", publicPermission: .none)
        try store.setParticipant(zone: zone, peer: participant, permission: .readWrite, status: .accepted)
    }

    /// Change sets authored by the participant, chained so each applies after the previous.
    func chained(_ batches: [[ObjectChange]], startHLC: UInt64) throws -> [ChangeSet] {
        var since = try library.privateStore.clock(of: zone)
        var sets: [ChangeSet] = []
        for batch in batches {
            let top = batch.flatMap(\.fields).map(\.stamp.hlc).max() ?? startHLC
            var until = since
            until[participant] = max(until[participant], top)
            sets.append(ChangeSet(zone: zone, since: since, until: until, objects: batch))
            since = until
        }
        return sets
    }
}

/// Median and spread of each figure over the runs, as a table and as markdown.
struct BenchReport {
    let results: [BenchResult]

    var grouped: [(name: String, unit: String, target: String, values: [Double])] {
        var order: [String] = []
        var byName: [String: [BenchResult]] = [:]
        for r in results {
            if byName[r.name] == nil { order.append(r.name) }
            byName[r.name, default: []].append(r)
        }
        return order.map { name in
            let rs = byName[name]!
            return (name, rs[0].unit, rs[0].target, rs.map(\.value).sorted())
        }
    }

    func table() -> String {
        grouped.map { g in
            let median = g.values[g.values.count / 2]
            return
                "\(g.name): \(format(median)) \(g.unit) (min \(format(g.values.first!)), max \(format(g.values.last!)), "
                + "\(g.values.count) runs; target \(g.target))"
        }.joined(separator: "\n")
    }

    func markdown() -> String {
        var lines = [
            "| figure | median | min | max | runs | target |", "| --- | --- | --- | --- | --- | --- |",
        ]
        for g in grouped {
            let median = g.values[g.values.count / 2]
            lines.append(
                "| \(g.name) | \(format(median)) \(g.unit) | \(format(g.values.first!)) | \(format(g.values.last!)) | "
                    + "\(g.values.count) | \(g.target) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func format(_ v: Double) -> String {
        v >= 100 ? String(format: "%.0f", v) : String(format: "%.3f", v)
    }
}
