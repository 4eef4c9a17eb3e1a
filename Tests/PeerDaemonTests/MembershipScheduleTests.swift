import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Random membership schedules across five daemons, as the people who attack each version run
/// them: the owner and four other persons' daemons are stopped or killed and started at
/// random while the owner invites, removes, changes permissions and shares more photos, and
/// the others accept (through the owner, or through a member while the owner is away, or by
/// the URL alone while the share is open to the public), tag the share's photos and leave. Once all
/// run again and are in sync, every daemon still in the share holds the same signed
/// membership log as the owner (as many operations, each person where the owner has it),
/// with a fold that matches its records, and sees the owner's photos and tags; the owner has
/// each person where the schedule left it.
@Suite(.onOwnThreads) struct MembershipScheduleTests {
    /// Where a person stands in the schedule, as the commands that succeeded left it.
    enum Standing: Equatable {
        case outside, invited, member, left, removed
    }

    /// One step of a schedule: a daemon (by index, the owner's first) stopped or started, or
    /// a command about one of the four other persons (by index among them).
    enum Step {
        case stop(Int)
        case start(Int)
        case invite(Int)
        case accept(Int)
        case leave(Int)
        case remove(Int)
        case permission(Int)
        case open(Bool)
        case tag(Int)
        case addPhoto
    }

    @Test func randomMembershipSchedulesAcrossFiveDaemonsEndWithTheSameLog() throws {
        let seed = SeededRandom.chooseSeed()
        var random = SeededRandom(seed: seed)
        let replay = "seed \(seed) (replay: PEERSHARE_TEST_SEED=\(seed))"
        let alice = try SharingPeer("alice")
        let others = try ["bob", "carol", "dave", "erin"].map { try SharingPeer($0) }
        let everyone = [alice] + others
        for peer in everyone { peer.join(everyone) }
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(2048), tags: ["summer"])
        let created = try alice.json("share", "create", photo, "--title", "Holidays")
        let share = try #require(created["share"]?.stringValue)
        var url = try #require(created["url"]?.stringValue)
        var standing = Array(repeating: Standing.outside, count: others.count)
        var daemons = ScheduledDaemons(everyone)
        var isPublic = false
        var photos = [photo]

        for _ in 0..<28 {
            // Every step that can be taken now, one chosen at random.
            var choices: [Step] = everyone.indices.map { daemons.running[$0] ? .stop($0) : .start($0) }
            for index in others.indices {
                let up = daemons.running[index + 1]
                switch standing[index] {
                case .outside, .left, .removed:
                    if daemons.running[0] { choices.append(.invite(index)) }
                    // Anyone holding the URL joins a share open to the public.
                    if up && standing[index] == .outside && isPublic { choices.append(.accept(index)) }
                case .invited:
                    if up { choices += [.accept(index), .accept(index)] }
                case .member:
                    if up { choices += [.leave(index), .tag(index), .tag(index)] }
                    if daemons.running[0] { choices += [.remove(index), .permission(index)] }
                }
            }
            if daemons.running[0] { choices += [.open(!isPublic), .addPhoto] }
            let step = choices[Int(random.next() % UInt64(choices.count))]
            let permission = random.next() % 2 == 0 ? "read-only" : "read-write"
            switch step {
            case .stop(let which): try daemons.stop(which, random: &random)
            case .start(let which): try daemons.start(which)
            case .invite(let index):
                let invited = try alice.json(
                    "share", "invite", share, others[index].person, "--permission", permission)
                // A person whose leave has not reached the owner yet (its daemon was away) is
                // still accepted there: the invitation changes nothing, and the leave, once it
                // arrives, ends the membership.
                let status = invited["status"]?.stringValue ?? "?"
                if status == "pending" { standing[index] = .invited }
                url = try #require(alice.share(share)["url"]?.stringValue)
                daemons.steps.append("invite \(others[index].name) \(permission): \(status)")
            case .accept(let index):
                let result = try others[index].cli("--json", "accept", url)
                if result.status == 0 { standing[index] = .member }
                let outcome =
                    result.status == 0 ? "accepted" : result.stderr.trimmingCharacters(in: .newlines)
                daemons.steps.append("\(others[index].name) accepts: \(outcome)")
            case .leave(let index):
                _ = try others[index].json("share", "leave", share)
                standing[index] = .left
                daemons.steps.append("\(others[index].name) leaves")
            case .remove(let index):
                // Only one the owner records (a join through a member waits for the owner).
                guard try alice.participantStatus(others[index], in: share) == "accepted" else { continue }
                _ = try alice.json("share", "remove", share, others[index].person)
                standing[index] = .removed
                daemons.steps.append("remove \(others[index].name)")
            case .permission(let index):
                guard try alice.participantStatus(others[index], in: share) == "accepted" else { continue }
                _ = try alice.json("share", "permission", share, others[index].person, permission)
                daemons.steps.append("\(others[index].name) made \(permission)")
            case .open(let open):
                _ = try alice.json("share", "set", share, "--public", open ? "read-only" : "none")
                isPublic = open
                daemons.steps.append(open ? "open to the public" : "closed to the public")
            case .tag(let index):
                // Refused at once on a read-only member; a change the owner refuses later (a
                // permission changed while the member was away) is undone everywhere. Names
                // repeat, so members create the same tag concurrently: deduplicated alike
                // everywhere.
                let name = ["sun", "sea", "sand"][Int(random.next() % 3)]
                let which = Int(random.next() % UInt64(photos.count))
                let result = try others[index].cli("--json", "tag", "add", photos[which], name)
                let outcome = result.status == 0 ? "done" : "refused"
                daemons.steps.append("\(others[index].name) tags photo \(which) \(name): \(outcome)")
            case .addPhoto:
                let name = "p\(daemons.steps.count).jpg"
                let added = try alice.addPhoto(name, bytes: randomBytes(1024 + daemons.steps.count))
                _ = try alice.json("share", "add", added, share)
                photos.append(added)
                daemons.steps.append("alice shares \(name)")
            }
        }

        try daemons.startAll()
        let schedule = daemons.schedule(replay: replay)
        print("membership schedule, \(schedule)")
        let members = others.indices.filter { standing[$0] == .member }.map { others[$0] }
        // Each person where the schedule left it, in the owner's signed log.
        let expected: [String: String] = Dictionary(
            uniqueKeysWithValues: others.indices.compactMap { index in
                switch standing[index] {
                case .outside: nil
                case .invited: (others[index].person, "pending")
                case .member: (others[index].person, "accepted")
                case .left, .removed: (others[index].person, "removed")
                }
            })
        do {
            // A join through a member that the owner has yet to ratify (it returned, the
            // member went away) is refused by the owner until the joiner has shown it its
            // accept: in sync a moment after.
            for peer in members + [alice] + members {
                try? waitUntil("\(peer.name) in sync", timeout: .seconds(60)) {
                    (try? peer.syncWait()) != nil
                }
                try peer.syncWait()
            }
            try waitUntil("every member to hold the owner's membership log", timeout: .seconds(60)) {
                let owners = try alice.share(share)["membership"]
                guard owners?["matches_records"] == true, Self.statuses(owners) == expected else {
                    return false
                }
                return try members.allSatisfy { member in
                    let theirs = try member.share(share)["membership"]
                    return theirs?["matches_records"] == true
                        && theirs?["operations"] == owners?["operations"]
                        && Self.statuses(theirs) == expected
                }
            }
            try waitUntil("every member to see the owner's photos and tags", timeout: .seconds(60)) {
                let owners = try alice.sees(share: share)
                return try members.allSatisfy { try $0.sees(share: share) == owners }
            }
        } catch {
            let views = try everyone.map { peer in
                "\(peer.name): \((try? peer.share(share)).map { "\($0)" } ?? "no share"); sees "
                    + "\((try? peer.sees(share: share)).map { "\($0)" } ?? "nothing")"
            }
            Issue.record(
                "\(schedule)\n\(views.joined(separator: "\n"))\n\(error)\n\(daemons.logs)")
        }
        // Those no longer in the share hold no copy of it.
        for index in others.indices where [.left, .removed].contains(standing[index]) {
            let peer = others[index]
            try waitUntil("\(peer.name) to hold no copy of the share (\(schedule))") {
                try !peer.liveShares().contains { $0["share"]?.stringValue == share }
            }
        }
        for peer in everyone { try peer.stop() }
    }

    /// Each person's status in a `membership` object of `share show`, by person ID.
    static func statuses(_ membership: JSON?) -> [String: String] {
        var result: [String: String] = [:]
        for participant in membership?["participants"]?.arrayValue ?? [] {
            if let person = participant["person_id"]?.stringValue,
                let status = participant["status"]?.stringValue
            {
                result[person] = status
            }
        }
        return result
    }
}
