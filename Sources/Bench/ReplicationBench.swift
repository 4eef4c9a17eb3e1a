import Foundation
import Glibc
import Replication
import Store
import Support

/// Replication figures of SPEC §11 over real TLS on loopback, two engines in this process:
/// a small change's latency, the initial sync of 1,000 photos × 100 KB, 1 GB of photo data
/// against a raw TLS stream, and the peak RSS of the process (both peers together).
struct ReplicationBench {
    let directory: String
    /// Which parts to run (`latency`, `initial`, `bulk`); all when nil.
    var parts: Set<String>? = nil

    func run() throws -> [BenchResult] {
        signal(SIGPIPE, SIG_IGN)
        var results: [BenchResult] = []
        if parts?.contains("latency") ?? true { results += try latency() }
        if parts?.contains("initial") ?? true { results += try initialSync() }
        if parts?.contains("bulk") ?? true { results += try bulkData() }
        return results
    }

    /// Owner and participant with engines, the participant pointed at the owner.
    final class Pair {
        let owner: Library
        let participant: Library
        let ownerEngine: ReplicationEngine
        let participantEngine: ReplicationEngine
        let ownerAddress: PeerAddress

        init(directory: String) throws {
            let ownerIdentity = try PeerIdentity.loadOrCreate(directory: directory + "/owner-identity")
            let participantIdentity = try PeerIdentity.loadOrCreate(
                directory: directory + "/participant-identity")
            owner = try Library(directory: directory + "/owner", localPeer: ownerIdentity.peerID)
            participant = try Library(
                directory: directory + "/participant", localPeer: participantIdentity.peerID)
            ownerEngine = ReplicationEngine(library: owner, identity: ownerIdentity)
            participantEngine = ReplicationEngine(library: participant, identity: participantIdentity)
            try ownerEngine.start()
            try participantEngine.start()
            ownerAddress = try ownerEngine.listen(host: "127.0.0.1", port: 0)
        }

        /// Shares `photos` (the first creates the share), accepted by the participant.
        func share(_ photos: [String]) throws -> String {
            let store = owner.privateStore
            let zone = try store.createShare(photo: photos[0], title: "bench", publicPermission: .none)
            for photo in photos.dropFirst() { try store.addToShare(photo: photo, zone: zone) }
            try store.setParticipant(
                zone: zone, peer: participant.localPeer, permission: .readWrite, status: .accepted)
            return zone
        }

        func connect(zone: String) throws {
            try participant.sharedStore.prepareParticipantZone(zone, owner: owner.localPeer)
            ownerEngine.refreshMembership()
            participantEngine.setAddress(ownerAddress, for: owner.localPeer)
            participantEngine.refreshMembership()
        }

        func waitInSync(timeout: Double = 600) {
            let deadline = monotonicSeconds() + timeout
            while !participantEngine.isInSync() || !ownerEngine.isInSync() {
                if monotonicSeconds() > deadline { fatalError("replication did not settle in \(timeout) s") }
                usleep(1_000)
            }
        }

        func stop() {
            participantEngine.stop()
            ownerEngine.stop()
        }
    }

    /// A tag added at the owner until the participant's store has committed it, 300 times.
    func latency() throws -> [BenchResult] {
        let pair = try Pair(directory: directory + "/latency")
        defer { pair.stop() }
        let data = try pair.owner.privateStore.blobs.store(Array("photo".utf8))
        let photo = try pair.owner.privateStore.addPhoto(name: "p", data: data)
        let zone = try pair.share([photo])
        try pair.connect(zone: zone)
        pair.waitInSync()
        let arrived = DispatchSemaphore(value: 0)
        pair.participant.sharedStore.observe { entry in
            if entry.author.hasPrefix("sync:") && entry.changes.contains(where: { $0.entity == "photo_tag" })
            {
                arrived.signal()
            }
        }
        var samples: [Double] = []
        for n in 0..<300 {
            let start = monotonicSeconds()
            _ = try pair.owner.privateStore.tag(photo: photo, name: "tag-\(n)")
            arrived.wait()
            samples.append((monotonicSeconds() - start) * 1000)
        }
        samples.sort()
        return [
            BenchResult(
                name: "tag visible at the other peer, p50", unit: "ms", value: samples[150], target: "≤ 5 ms"),
            BenchResult(
                name: "tag visible at the other peer, p99", unit: "ms", value: samples[297], target: "≤ 25 ms"
            ),
        ]
    }

    /// 1,000 photos of 100 KB, owner → new participant, from connecting until in sync.
    func initialSync() throws -> [BenchResult] {
        let pair = try Pair(directory: directory + "/initial")
        defer { pair.stop() }
        var photos: [String] = []
        var files: [PlainTransfer.File] = []
        var bytes = [UInt8](repeating: 0, count: 100_000)
        for n in 0..<1_000 {
            bytes.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(n), as: UInt64.self) }
            let data = try pair.owner.privateStore.blobs.store(bytes)
            files.append(
                PlainTransfer.File(
                    path: pair.owner.privateStore.blobs.path(for: data.hash), hash: data.hash, size: data.size
                ))
            photos.append(
                try pair.owner.privateStore.addPhoto(name: "photo-\(n).jpg", data: data, tags: ["bench"]))
        }
        var zone = ""
        let sharing = try measure { zone = try pair.share(photos) }
        // The setup's log is copied back in the background; not part of the sync.
        try pair.owner.privateStore.checkpoint()
        // When the last photo row arrives (metadata) as against the data: the two phases.
        let rows = RowArrivals()
        pair.participant.sharedStore.observe { entry in
            rows.count(entry.changes.count { $0.entity == "photo" && $0.type == .insert })
        }
        let start = monotonicSeconds()
        let cpuBefore = processCPUSeconds()
        let seconds = try measure {
            try pair.connect(zone: zone)
            pair.waitInSync()
        }
        let cpu = processCPUSeconds() - cpuBefore
        let metadata = rows.last(ofTotal: photos.count).map { $0 - start } ?? .nan
        let disk = try FileWriteLimit(directory: directory + "/initial", count: 1_000, size: 100_000)
            .seconds()
        let plain = try PlainTransfer(directory: directory + "/initial").run(files)
        return [
            BenchResult(
                name: "initial sync, 1,000 × 100 KB", unit: "s", value: seconds,
                target: "≤ 0.3 s (≥ 4× faster than Syncthing: daemon table)"),
            BenchResult(
                name: "initial sync: all 1,000 photo rows applied", unit: "s", value: metadata, target: "-"),
            BenchResult(
                name: "initial sync: CPU time of both peers (user + system)", unit: "s", value: cpu,
                target: "-"),
            BenchResult(
                name: "1,000 × 100 KB written as files + one syncfs, same directory", unit: "s", value: disk,
                target: "physical limit"),
            BenchResult(
                name:
                    "initial sync, plain transfer: the same files over one TLS stream, one thread a side, one syncfs",
                unit: "s", value: plain.seconds, target: "reference"),
            BenchResult(
                name: "initial sync, plain transfer: CPU time", unit: "s", value: plain.cpu, target: "-"),
            BenchResult(
                name: "initial sync setup: share 1,000 tagged photos one by one (share add)", unit: "s",
                value: sharing, target: "-"),
        ]
    }

    /// 1 GB of photo data, owner → participant, against one raw TLS 1.3 stream.
    func bulkData() throws -> [BenchResult] {
        let size = 1 << 30
        let pair = try Pair(directory: directory + "/bulk")
        defer {
            pair.stop()
            // 2 GB in a few files: removed at once (few inodes, unlike the initial sync's).
            try? FileManager.default.removeItem(atPath: directory + "/bulk")
        }
        let file = directory + "/bulk-source"
        try writePattern(file, bytes: size)
        let photo = try pair.owner.addPhoto(file: file, name: "large.raw")
        guard let hash = try pair.owner.privateStore.photo(photo)?.sha256 else {
            throw BenchFailure("the 1 GB photo is not in the owner's store")
        }
        unlink(file)
        let zone = try pair.share([photo])
        resetPeakRSS()
        let before = residentBytes("VmRSS")
        let cpuBefore = processCPUSeconds()
        let seconds = try measure {
            try pair.connect(zone: zone)
            pair.waitInSync()
        }
        let cpu = processCPUSeconds() - cpuBefore
        let peak = residentBytes("VmHWM")
        let plain = try PlainTransfer(directory: directory + "/bulk").run([
            PlainTransfer.File(
                path: pair.owner.privateStore.blobs.path(for: hash), hash: hash, size: Int64(size))
        ])
        let raw = try rawTLSThroughput(bytes: size)
        let rate = Double(size) / seconds / 1e6
        let plainRate = Double(size) / plain.seconds / 1e6
        return [
            BenchResult(name: "1 GB of photo data", unit: "MB/s", value: rate, target: "≥ 60 % of raw TLS"),
            BenchResult(name: "raw TLS 1.3 loopback stream", unit: "MB/s", value: raw, target: "reference"),
            BenchResult(name: "1 GB: share of raw TLS", unit: "%", value: rate / raw * 100, target: "≥ 60 %"),
            BenchResult(
                name: "1 GB: CPU time of both peers (user + system)", unit: "s", value: cpu, target: "-"),
            BenchResult(
                name: "1 GB, plain transfer: the same data over one TLS stream, one thread a side, synced",
                unit: "MB/s",
                value: plainRate, target: "reference"),
            BenchResult(
                name: "1 GB, plain transfer: share of raw TLS", unit: "%", value: plainRate / raw * 100,
                target: "-"),
            BenchResult(name: "1 GB, plain transfer: CPU time", unit: "s", value: plain.cpu, target: "-"),
            BenchResult(
                name: "1 GB: peak RSS growth, both peers in one process", unit: "MiB",
                value: Double(peak - before) / 1_048_576, target: "≤ 64 MiB per daemon"),
        ]
    }

    private func rawTLSThroughput(bytes: Int) throws -> Double {
        let received = Guarded(0)
        let seconds = try TLSStream(directory: directory + "/raw").timed(
            receive: { connection in
                var buffer = [UInt8](repeating: 0, count: 256 << 10)
                while let n = try? buffer.withUnsafeMutableBytes({ try connection.read(into: $0) }), n > 0 {
                    received.withLock { $0 += n }
                }
            },
            send: { connection in
                let chunk = [UInt8](repeating: 7, count: 256 << 10)
                var sent = 0
                while sent < bytes {
                    try connection.write(chunk)
                    sent += chunk.count
                }
            })
        return Double(received.withLock { $0 }) / seconds / 1e6
    }

    private func writePattern(_ path: String, bytes: Int) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(fd) }
        var block = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        for index in 0..<(bytes >> 20) {
            block.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(index), as: UInt64.self) }
            _ = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
    }

    private func residentBytes(_ key: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            return (Int(line.filter(\.isNumber)) ?? 0) * 1024
        }
        return 0
    }

    private func resetPeakRSS() {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        if fd >= 0 {
            _ = write(fd, "5", 1)
            close(fd)
        }
    }
}

/// When rows arrived, counted from a store observer (any thread).
final class RowArrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    private var lastAt = 0.0

    func count(_ inserted: Int) {
        guard inserted > 0 else { return }
        let now = monotonicSeconds()
        lock.withLock {
            total += inserted
            lastAt = now
        }
    }

    /// When the last row arrived, if all `expected` did.
    func last(ofTotal expected: Int) -> Double? {
        lock.withLock { total == expected ? lastAt : nil }
    }
}
