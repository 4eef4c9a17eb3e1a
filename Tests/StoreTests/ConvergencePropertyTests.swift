import Foundation
import Support
import TestSupport
import Testing

@testable import Store

/// Random operations on 3–5 replicas of one zone, random delivery (reordered, duplicated,
/// lost), then a full exchange: every replica must show the same zone, with one tag per name
/// (the smallest UUID) and no photo↔tag link lost. A failure names its seed; replay one with
/// `PEERSHARE_PROPERTY_SEED=<seed> swift test --filter ConvergencePropertyTests`.
@Suite struct ConvergencePropertyTests {
    static let schedules: [UInt64] = {
        if let text = ProcessInfo.processInfo.environment["PEERSHARE_PROPERTY_SEED"], let seed = UInt64(text)
        {
            return [seed]
        }
        let count = Int(ProcessInfo.processInfo.environment["PEERSHARE_PROPERTY_SCHEDULES"] ?? "") ?? 200
        return (1...UInt64(count)).map { $0 &* 7919 }
    }()

    @Test(arguments: schedules)
    func replicasConverge(seed: UInt64) throws {
        let world = try World(seed: seed)
        try world.run(steps: 60)
        try world.exchangeUntilQuiet()
        let failures = try world.check()
        #expect(
            failures.isEmpty,
            "seed \(seed) (replay: PEERSHARE_PROPERTY_SEED=\(seed)): \(failures.joined(separator: "; "))")
    }
}

/// A clock all replicas of a schedule read, advanced by the schedule.
final class SimulatedTime: @unchecked Sendable {
    private let lock = Lock()
    private var ms: UInt64 = 1_800_000_000_000
    func now() -> UInt64 { lock.withLock { ms } }
    func advance(_ delta: UInt64) { lock.withLock { ms += delta } }
}

/// One replica of the zone under test.
final class Replica {
    let library: TestLibrary
    let store: LibraryStore
    let canWrite: Bool
    init(library: TestLibrary, store: LibraryStore, canWrite: Bool) {
        self.library = library
        self.store = store
        self.canWrite = canWrite
    }
}

/// One schedule: replicas, an unreliable network between owner and participants, and an
/// oracle of the links that must survive.
final class World {
    var rng: SplitMix64
    let time = SimulatedTime()
    var replicas: [Replica] = []
    let zone: String
    var queue: [(from: Int, to: Int, set: ChangeSet)] = []
    var belief: [Int: [Int: VectorClock]] = [:]
    // Oracle.
    var addedLinks: Set<String> = []
    var removedLinks: Set<String> = []
    var deletedPhotos: Set<String> = []
    var deletedNames: Set<String> = []
    /// When each "photo|name" was last tagged and last untagged (simulated milliseconds).
    var lastTagged: [String: UInt64] = [:]
    var lastUntagged: [String: UInt64] = [:]
    let names = ["red", "green", "blue", "sea"]

    init(seed: UInt64) throws {
        rng = SplitMix64(seed: seed)
        let count = Int.random(in: 3...5, using: &rng)
        let readOnlyIndex = Bool.random(using: &rng) ? count - 1 : -1
        let sim = time
        for i in 0..<count {
            let clock = HybridLogicalClock(now: { sim.now() })
            let peer = randomPeer(using: &rng)
            let lib = try TestLibrary(
                peer: peer, clock: clock, ids: IDSource(seed: seed &+ UInt64(i) &* 1_000_003))
            replicas.append(
                Replica(library: lib, store: i == 0 ? lib.priv : lib.shared, canWrite: i != readOnlyIndex))
        }
        let owner = replicas[0].library
        let first = try owner.addPhoto("first", tags: ["red"])
        zone = try owner.priv.createShare(photo: first, title: "zone", publicPermission: .none)
        added("\(first)|red")
        for (i, replica) in replicas.enumerated().dropFirst() {
            try owner.priv.setParticipant(
                zone: zone, peer: replica.library.peer, permission: replica.canWrite ? .readWrite : .readOnly,
                status: .accepted)
            try replica.store.prepareParticipantZone(zone, owner: owner.peer)
            _ = i
        }
        for replica in replicas.dropFirst() { try sync(zone, from: owner.priv, to: replica.store) }
    }

    func run(steps: Int) throws {
        for _ in 0..<steps {
            time.advance(UInt64.random(in: 0...3, using: &rng))
            let roll = Int.random(in: 0..<100, using: &rng)
            if roll < 55 {
                let writers = replicas.indices.filter { replicas[$0].canWrite }
                try operate(on: writers.randomElement(using: &rng)!)
            } else if roll < 75 {
                send(from: Int.random(in: 0..<replicas.count, using: &rng))
            } else {
                try deliver(count: Int.random(in: 1...4, using: &rng))
            }
        }
    }

    /// The neighbours of a replica: participants talk to the owner, the owner to everyone.
    func neighbours(of i: Int) -> [Int] { i == 0 ? Array(replicas.indices.dropFirst()) : [0] }

    func send(from i: Int) {
        for j in neighbours(of: i) {
            let since = belief[i]?[j] ?? VectorClock()
            guard let sets = try? replicas[i].store.changes(zone: zone, since: since, batchSize: 8) else {
                continue
            }
            for set in sets { queue.append((i, j, set)) }
            if let until = sets.last?.until { belief[i, default: [:]][j] = until }
        }
    }

    func deliver(count: Int) throws {
        for _ in 0..<count where !queue.isEmpty {
            let index = Int.random(in: 0..<queue.count, using: &rng)
            let message = queue.remove(at: index)
            let fate = Int.random(in: 0..<10, using: &rng)
            if fate == 0 { continue }  // lost
            if fate == 1 { queue.append(message) }  // duplicated
            let receiver = replicas[message.to].store
            do {
                _ = try receiver.apply(message.set, from: replicas[message.from].library.peer)
            } catch is SyncError {
                // The receiver answers with its real clock; the sender resumes from there.
                belief[message.from, default: [:]][message.to] = try receiver.clock(of: zone)
            }
        }
    }

    func exchangeUntilQuiet() throws {
        for _ in 0..<12 {
            var moved = 0
            for j in replicas.indices.dropFirst() {
                for (from, to) in [(0, j), (j, 0)] {
                    let reports = try sync(zone, from: replicas[from].store, to: replicas[to].store)
                    moved += reports.reduce(0) { $0 + $1.applied + $1.deduplicated }
                }
            }
            if moved == 0 { return }
        }
    }

    func livePhotos(_ r: Replica) throws -> [Photo] { try r.store.photos(zone: zone) }

    func operate(on i: Int) throws {
        let r = replicas[i]
        let photos = try livePhotos(r)
        let photo = photos.randomElement(using: &rng)
        let name = names.randomElement(using: &rng)!
        do {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1:
                try addPhoto(on: i, tags: [name])
            case 2, 3:
                guard let photo else { return }
                _ = try r.store.tag(photo: photo.id, name: name)
                added("\(photo.id)|\(name)")
            case 4:
                guard let photo, let tag = photo.tags.randomElement(using: &rng) else { return }
                try r.store.untag(photo: photo.id, tag: tag.id)
                removed("\(photo.id)|\(tag.name)")
            case 5:
                guard let photo, let tag = try r.store.tags(zone: zone).randomElement(using: &rng) else {
                    return
                }
                let now = try r.store.toggle(photo: photo.id, tag: tag.id)
                if now { added("\(photo.id)|\(tag.name)") } else { removed("\(photo.id)|\(tag.name)") }
            case 6:
                guard let photo else { return }
                try r.store.renamePhoto(photo.id, to: "renamed-\(Int.random(in: 0..<100, using: &rng))")
            case 7:
                guard let photo else { return }
                if Bool.random(using: &rng) {
                    try r.store.deletePhoto(photo.id)
                    deletedPhotos.insert(photo.id)
                } else {
                    _ = try r.store.rate(photo: photo.id, value: Int.random(in: 1...5, using: &rng))
                }
            case 8:
                guard let photo, let rating = photo.ratings.randomElement(using: &rng) else { return }
                try r.store.deleteRating(rating.id)
            default:
                if Int.random(in: 0..<4, using: &rng) == 0,
                    let tag = try r.store.tags(zone: zone).randomElement(using: &rng)
                {
                    try r.store.deleteTag(tag.id)
                    deletedNames.insert(tag.name)
                } else {
                    try addPhoto(on: i, tags: [name, names.randomElement(using: &rng)!])
                }
            }
        } catch is StoreError {
            // A no-op in this state (for example untagging what another op just removed).
        }
    }

    /// Adds a photo: on the owner, half the time through the default zone and `share add`
    /// (with a second photo keeping the tag behind, so the tag is copied, not moved).
    func addPhoto(on i: Int, tags: [String]) throws {
        let r = replicas[i]
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let id: String
        if i == 0 && Bool.random(using: &rng) {
            id = try r.library.addPhoto("moved", bytes: bytes, tags: tags)
            if Bool.random(using: &rng) {
                _ = try r.library.addPhoto("stays", bytes: bytes + [1], tags: tags)
            }
            try r.store.addToShare(photo: id, zone: zone)
        } else {
            let data = try r.store.blobs.store(bytes)
            id = try r.store.addPhoto(
                zone: zone, name: "photo", data: data, thumbnail: Array(bytes.prefix(4)), tags: tags)
        }
        for tag in tags { added("\(id)|\(tag)") }
    }

    func added(_ link: String) {
        addedLinks.insert(link)
        lastTagged[link] = time.now()
    }

    func removed(_ link: String) {
        removedLinks.insert(link)
        lastUntagged[link] = time.now()
    }

    func check() throws -> [String] {
        var failures: [String] = []
        let dumps = try replicas.map { try $0.store.canonicalDump(zone: zone) }
        for (i, dump) in dumps.enumerated() where dump != dumps[0] {
            failures.append("replica \(i) differs from the owner:\n\(diff(dumps[0], dump))")
        }
        for (i, replica) in replicas.enumerated() {
            failures += try replica.store.stampOrderDrift().map { "replica \(i) stamps: \($0)" }
        }
        let owner = replicas[0].store
        for name in names {
            let visible = try owner.tags(zone: zone).filter { $0.name == name }
            // Every tag of this name ever created, whatever became of it: unless a person deleted
            // the name, the smallest of them must be the one everybody sees.
            let created = try owner.read { db in
                try db.query("SELECT uuid FROM tags WHERE zone = ? AND name = ?", zone, name) { $0.string(0) }
            }
            if visible.count > 1 { failures.append("\(visible.count) visible tags named \(name)") }
            if !deletedNames.contains(name), let smallest = created.min(), visible.first?.uuid != smallest {
                failures.append(
                    "tag \(name): winner \(visible.first?.uuid ?? "none"), smallest UUID \(smallest)")
            }
            for (i, r) in replicas.enumerated() where r.canWrite {
                let raw = try r.store.read { db in
                    try db.query(
                        "SELECT count(*) FROM tags WHERE zone = ? AND name = ? AND deleted = 0", zone, name
                    ) { $0.int(0) }
                }
                if raw.first ?? 0 > 1 {
                    failures.append("writer \(i) kept \(raw[0]) live tags named \(name)")
                }
            }
        }
        let photos = Dictionary(uniqueKeysWithValues: try owner.photos(zone: zone).map { ($0.id, $0) })
        for link in addedLinks.subtracting(removedLinks) {
            let parts = link.split(separator: "|").map(String.init)
            guard !deletedPhotos.contains(parts[0]), !deletedNames.contains(parts[1]),
                let photo = photos[parts[0]]
            else { continue }
            if !photo.tags.contains(where: { $0.name == parts[1] }) { failures.append("link lost: \(link)") }
        }
        // A removal after the last tagging holds (a later millisecond means a later stamp on
        // every replica, whatever deduplication merged in between).
        for (link, removedAt) in lastUntagged where removedAt > lastTagged[link, default: 0] {
            let parts = link.split(separator: "|").map(String.init)
            guard !deletedNames.contains(parts[1]), let photo = photos[parts[0]] else { continue }
            if photo.tags.contains(where: { $0.name == parts[1] }) {
                failures.append("removal undone: \(link) untagged at \(removedAt)")
            }
        }
        return failures
    }

    private func diff(_ a: String, _ b: String) -> String {
        let left = Set(a.split(separator: "\n"))
        let right = Set(b.split(separator: "\n"))
        return (left.subtracting(right).map { "- \($0)" } + right.subtracting(left).map { "+ \($0)" })
            .sorted().joined(separator: "\n")
    }
}
