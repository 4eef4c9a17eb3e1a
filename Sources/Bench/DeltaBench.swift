import Foundation
import Replication
import Store

/// What a zone's owner spends computing the delta a joining peer needs: a zone of 100,000
/// photos, each with a rating and a tag link (1,000 tags), read page by page with the
/// daemon's session limits, as a connection streams it; then what the joiner spends applying
/// it (the two sides of a join, one after the other, without the network).
struct DeltaBench {
    let directory: String
    let photos: Int

    func run() throws -> [BenchResult] {
        let zone = try BenchZone(directory: directory)
        let store = zone.library.privateStore
        let author = zone.participant
        var hlc = benchStartHLC()
        var batch: [ObjectChange] = []
        var sets: [[ObjectChange]] = []
        func add(_ object: ObjectChange) {
            batch.append(object)
            if batch.count >= 3_000 {
                sets.append(batch)
                batch = []
            }
        }
        for t in 0..<1_000 {
            hlc += 1
            add(benchTag(t, Stamp(hlc: hlc, peer: author)))
        }
        for p in 0..<photos {
            hlc += 1
            let s = Stamp(hlc: hlc, peer: author)
            for object in benchPhoto(p, hash: benchHash(p), tag: p % 1_000, s) { add(object) }
        }
        sets.append(batch)
        for set in try zone.chained(sets, startHLC: hlc) { _ = try store.apply(set, from: author) }
        try store.checkpoint()

        var session = SessionConfiguration()
        if let size = ProcessInfo.processInfo.environment["PEERSHARE_BENCH_BATCH"].flatMap(Int.init) {
            session.changeBatchSize = size
        }
        let limit = ChangePageLimit(
            fields: session.changeBatchSize * session.changePageBatches, bytes: session.changePageBytes)
        var since = VectorClock()
        var fields = 0
        var pages = 0
        var largestPage = 0
        var computed: [ChangePage] = []
        let cpu = processCPUSeconds()
        let seconds = try measure {
            while true {
                let page = try store.changePage(
                    zone: zone.zone, since: since, batchSize: session.changeBatchSize, limit: limit)
                let count = page.sets.reduce(0) { $0 + $1.changeCount }
                fields += count
                largestPage = max(largestPage, count)
                pages += 1
                for set in page.sets { since = since.merged(with: set.until) }
                computed.append(page)
                if page.complete { break }
            }
        }
        let used = processCPUSeconds() - cpu
        // The joiner's side: a participant's shared store applies the pages in order, decoded
        // from their wire bytes as a connection receives them, consecutive sets together as a
        // daemon's receiver groups those waiting (`SessionConfiguration.maximumChangesPerApply`).
        let joiner = try Library(directory: directory + "/joiner", localPeer: peer(0xEF))
        defer { joiner.close() }
        try joiner.sharedStore.prepareParticipantZone(zone.zone, owner: zone.library.localPeer)
        let encoded = computed.flatMap(\.sets).map(ChangeSetCodec.encode)
        computed = []
        let joinerCPU = processCPUSeconds()
        // The longest transaction: how long the joiner's store stays locked to everything else.
        var longest = 0.0
        let applying = try measure {
            var group: [ChangeSet] = []
            var changes = 0
            func applyGroup() throws {
                var results: [Result<ApplyReport, any Error>] = []
                longest = max(
                    longest,
                    measure { results = joiner.sharedStore.apply(group, from: zone.library.localPeer) })
                for result in results { _ = try result.get() }
                group = []
                changes = 0
            }
            for bytes in encoded {
                let set = try ChangeSetCodec.decode(bytes)
                if changes + set.changeCount > SessionConfiguration.maximumChangesPerApply {
                    try applyGroup()
                }
                group.append(set)
                changes += set.changeCount
            }
            try applyGroup()
        }
        let joinerUsed = processCPUSeconds() - joinerCPU
        return [
            BenchResult(
                name:
                    "owner computes the delta of a zone of \(photos) photos with ratings and links, page by page",
                unit: "s", value: seconds, target: "-"),
            BenchResult(
                name: "owner's delta: field changes per second", unit: "changes/s",
                value: Double(fields) / seconds, target: "-"),
            BenchResult(name: "owner's delta: CPU time", unit: "s", value: used, target: "-"),
            BenchResult(name: "owner's delta: pages", unit: "pages", value: Double(pages), target: "-"),
            BenchResult(
                name: "owner's delta: largest page", unit: "changes", value: Double(largestPage), target: "-"),
            BenchResult(
                name: "joiner applies that delta (decode + apply)", unit: "s", value: applying, target: "-"),
            BenchResult(
                name: "joiner applies that delta: changes per second", unit: "changes/s",
                value: Double(fields) / applying, target: "-"),
            BenchResult(
                name: "joiner applies that delta: CPU time", unit: "s", value: joinerUsed, target: "-"),
            BenchResult(
                name: "joiner applies that delta: longest transaction (the store locked)", unit: "s",
                value: longest, target: "-"),
        ]
    }
}
