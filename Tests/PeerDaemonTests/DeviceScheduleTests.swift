import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Random schedules across a person's two devices and two participants, as the people who
/// attack each version run them: alice's laptop and desktop (linked, one person) and bob's
/// and carol's daemons are stopped, killed and started at random while alice, on whichever
/// device is up, adds photos to her library and to a share, tags, renames and rates them, and
/// bob and carol tag and rate the share's photos. Once all run again and are in sync, both of
/// alice's devices show the same library, everyone shows the same share, and every copy of
/// the share's signed membership log holds the same operations, with a fold that matches its
/// records.
///
/// No permission changes: a write one owner device takes by records older than its sibling's
/// stays on the owner's devices when the sibling refuses it and its author undoes it
/// (docs/REPLICATION.md, *Refusals*, known limit; seed 414 with them).
@Suite(.onOwnThreads) struct DeviceScheduleTests {
    /// One step of a schedule: a daemon (by index: laptop, desktop, bob, carol) stopped,
    /// killed or started, or something done on one of them.
    enum Step {
        case stop(Int)
        case start(Int)
        case addToLibrary(Int)
        case addToShare(Int)
        case tag(Int)
        case rename(Int)
        case rate(Int)
    }

    @Test func randomSchedulesAcrossAPersonsTwoDevicesEndWithTheSameLibraryAndShare() throws {
        let seed = SeededRandom.chooseSeed()
        var random = SeededRandom(seed: seed)
        let replay = "seed \(seed) (replay: PEERSHARE_TEST_SEED=\(seed))"
        let laptop = try SharingPeer("alice")
        let desktop = try SharingPeer("alice-desktop")
        let bob = try SharingPeer("bob")
        let carol = try SharingPeer("carol")
        let everyone = [laptop, desktop, bob, carol]
        for peer in everyone { peer.join(everyone) }
        let beach = try laptop.addPhoto("beach.jpg", bytes: randomBytes(2048), tags: ["summer"])
        let created = try laptop.json("share", "create", beach, "--title", "Holidays")
        let share = try #require(created["share"]?.stringValue)
        let url = try #require(created["url"]?.stringValue)
        for participant in [bob, carol] {
            _ = try laptop.json("share", "invite", share, participant.person, "--permission", "read-write")
            _ = try participant.json("accept", url)
        }
        let link = try #require(try laptop.json("device", "link")["url"]?.stringValue)
        _ = try desktop.json("device", "join", link, "--name", "desktop")
        try waitUntil("the desktop to hold alice's share", timeout: .seconds(60)) {
            (try? desktop.sees(share: share)) == ["beach.jpg": ["summer"]]
        }
        var libraryPhotos = [beach]
        var sharePhotos = [beach]
        var daemons = ScheduledDaemons(everyone)

        for _ in 0..<30 {
            var choices: [Step] = everyone.indices.map { daemons.running[$0] ? .stop($0) : .start($0) }
            for device in 0..<2 where daemons.running[device] {
                choices += [
                    .addToLibrary(device), .addToShare(device), .tag(device), .rename(device), .rate(device),
                ]
            }
            for participant in 2..<4 where daemons.running[participant] {
                choices += [.tag(participant), .rate(participant)]
            }
            let step = choices[Int(random.next() % UInt64(choices.count))]
            // A photo of the share for a participant, of the library or the share for alice.
            func photo(for who: Int) -> String {
                let pool = who < 2 && random.next() % 2 == 0 ? libraryPhotos : sharePhotos
                return pool[Int(random.next() % UInt64(pool.count))]
            }
            func outcome(_ result: CLIResult) -> String { result.status == 0 ? "done" : "refused" }
            switch step {
            case .stop(let which): try daemons.stop(which, random: &random)
            case .start(let which): try daemons.start(which)
            case .addToLibrary(let device):
                let name = "l\(daemons.steps.count).jpg"
                libraryPhotos.append(
                    try everyone[device].addPhoto(
                        name, bytes: randomBytes(1024 + daemons.steps.count), tags: ["home"]))
                daemons.steps.append("\(everyone[device].name) adds \(name)")
            case .addToShare(let device):
                let name = "s\(daemons.steps.count).jpg"
                let added = try everyone[device].addPhoto(
                    name, bytes: randomBytes(1024 + daemons.steps.count))
                let result = try everyone[device].cli("--json", "share", "add", added, share)
                if result.status == 0 { sharePhotos.append(added) } else { libraryPhotos.append(added) }
                daemons.steps.append("\(everyone[device].name) shares \(name): \(outcome(result))")
            case .tag(let who):
                let name = ["sun", "sea", "sand"][Int(random.next() % 3)]
                let target = photo(for: who)
                let result = try everyone[who].cli("--json", "tag", "add", target, name)
                daemons.steps.append(
                    "\(everyone[who].name) tags \(target.prefix(8)) \(name): \(outcome(result))")
            case .rename(let device):
                let target = photo(for: device)
                let name = "renamed-\(daemons.steps.count)"
                let result = try everyone[device].cli("--json", "photo", "rename", target, name)
                daemons.steps.append(
                    "\(everyone[device].name) renames \(target.prefix(8)) \(name): \(outcome(result))")
            case .rate(let who):
                let target = photo(for: who)
                let value = 1 + random.next() % 5
                let result = try everyone[who].cli("--json", "rate", target, "\(value)")
                daemons.steps.append(
                    "\(everyone[who].name) rates \(target.prefix(8)) \(value): \(outcome(result))")
            }
        }

        try daemons.startAll()
        let schedule = daemons.schedule(replay: replay)
        print("device schedule, \(schedule)")
        do {
            for peer in everyone + everyone {
                try? waitUntil("\(peer.name) in sync", timeout: .seconds(60)) {
                    (try? peer.syncWait()) != nil
                }
            }
            try waitUntil("alice's two devices to show the same library", timeout: .seconds(60)) {
                try Self.view(of: laptop) == Self.view(of: desktop)
            }
            try waitUntil("everyone to show the same share", timeout: .seconds(60)) {
                let owners = try Self.view(of: laptop, share: share)
                return try everyone.allSatisfy { try Self.view(of: $0, share: share) == owners }
            }
            try waitUntil("every copy of the share's log to hold the same operations", timeout: .seconds(60))
            {
                let logs = try everyone.map { try $0.share(share)["membership"] }
                return logs.allSatisfy {
                    $0?["matches_records"] == true && $0?["operations"] == logs[0]?["operations"]
                }
            }
        } catch {
            let views = everyone.map { peer in
                "\(peer.name): library \((try? Self.view(of: peer)).map { "\($0)" } ?? "?"); share "
                    + "\((try? peer.share(share)).map { "\($0)" } ?? "no share")"
            }
            Issue.record(
                "\(schedule)\n\(views.joined(separator: "\n"))\n\(error)\n\(daemons.logs)")
        }
        for peer in everyone { try peer.stop() }
    }

    /// Each photo `peer` lists (of `share` when given), by ID: its name, its tag names and
    /// its rating values, sorted.
    static func view(of peer: SharingPeer, share: String? = nil) throws -> [String: String] {
        let photos =
            try share.map { try peer.json("photo", "list", "--share", $0) } ?? peer.json("photo", "list")
        var seen: [String: String] = [:]
        for photo in photos.arrayValue ?? [] {
            let tags = photo["tags"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            let ratings = photo["ratings"]?.arrayValue?.compactMap { $0["value"]?.intValue } ?? []
            seen[photo["id"]?.stringValue ?? "?"] =
                "\(photo["name"]?.stringValue ?? "?") \(tags.sorted()) \(ratings.sorted())"
        }
        return seen
    }
}
