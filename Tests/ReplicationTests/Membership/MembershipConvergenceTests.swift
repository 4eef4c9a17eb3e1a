import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// Random membership histories: the owner's two devices and two participants issue
/// operations while apart and meet at random; every order of arrival folds to the same
/// state.
@Suite struct MembershipConvergenceTests {
    let people = MembershipPeople.shared

    /// One device's copy of the zone's membership, with its hybrid clock.
    struct View {
        let device: PeerIdentity
        var log: MembershipLog
        var clock: UInt64 = 10
    }

    @Test func randomConcurrentHistoriesFoldToTheSameStateInAnyArrivalOrder() throws {
        let seed = SeededRandom.chooseSeed()
        var rng = SeededRandom(seed: seed)
        for _ in 0..<150 { try randomHistory(&rng, seed: seed) }
    }

    private func randomHistory(_ rng: inout SeededRandom, seed: UInt64) throws {
        let replay = "seed \(seed) (replay: PEERSHARE_TEST_SEED=\(seed))"
        let create = people.create(publicPermission: .readOnly)
        var views = try [people.laptop, people.desktop, people.aliceDevice, people.bobDevice].map {
            View(device: $0, log: try people.log([create]))
        }
        var time: UInt64 = 10
        for _ in 0..<18 {
            time += 1
            let actor = Int(rng.next() % UInt64(views.count))
            if rng.next() % 3 == 0 {
                // Meet: the actor hears everything another device holds, in that device's order.
                let other = Int(rng.next() % UInt64(views.count))
                for op in views[other].log.operations {
                    try views[actor].log.receive(op, directory: people.directory)
                    views[actor].clock = max(views[actor].clock, op.stamp)
                }
                continue
            }
            // Clocks run a little apart, so stamps of different devices sometimes tie.
            views[actor].clock = max(views[actor].clock + 1, time - min(time, rng.next() % 3))
            let action = randomAction(by: views[actor].device, &rng)
            let op = people.op(action, by: views[actor].device, at: views[actor].clock)
            try views[actor].log.receive(op, directory: people.directory)
        }

        let all = Array(Set(views.flatMap(\.log.operations)))
        var states: [MembershipState?] = []
        var rejections: [[MembershipError?]] = []
        for _ in 0..<4 {
            var order = all
            for i in order.indices.reversed() { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
            let log = try people.log(order)
            states.append(log.state)
            rejections.append(all.map { log.rejection(of: $0.hash) })
        }
        // Every device, once it has heard from every other, holds the same too.
        for index in views.indices {
            for other in views.indices where other != index {
                for op in views[other].log.operations {
                    try views[index].log.receive(op, directory: people.directory)
                }
            }
            states.append(views[index].log.state)
            rejections.append(all.map { views[index].log.rejection(of: $0.hash) })
        }
        #expect(states.allSatisfy { $0 != nil }, "\(replay)")
        #expect(
            Set(states).count == 1,
            "\(replay): \(Set(states).count) different states from \(all.count) operations")
        #expect(
            Set(rejections.map { $0.map { $0?.description } }).count == 1,
            "\(replay): fold set different operations aside")
    }

    /// An action `device` may sign: the owner's devices change the membership, the
    /// participants accept (by invitation or by one of two tokens) and leave.
    private func randomAction(by device: PeerIdentity, _ rng: inout SeededRandom)
        -> MembershipOperation.Action
    {
        let tokens = ["token-a", "token-b"].map { Array($0.utf8) }
        let permissions: [Permission] = [.none, .readOnly, .readWrite]
        func pick<T>(_ choices: [T]) -> T { choices[Int(rng.next() % UInt64(choices.count))] }
        if device.peerID == people.aliceDevice.peerID || device.peerID == people.bobDevice.peerID {
            let person = people.person(of: device)
            return rng.next() % 4 == 0
                ? .leave(person: person)
                : .accept(person: person, device: device.peerID, token: pick([nil] + tokens.map { $0 }))
        }
        let person = pick([people.alice, people.bob])
        let participantDevice = person == people.alice ? people.aliceDevice.peerID : people.bobDevice.peerID
        let participantPermission = pick([Permission.readOnly, .readWrite])
        switch rng.next() % 30 {
        case 0: return .stop
        case 1..<4: return .setTitle(pick(["a", "b", "c"]))
        case 4..<7: return .setPublicPermission(pick(permissions))
        case 7..<13: return .invite(person: person, permission: participantPermission)
        case 13..<16: return .addToken(hash: SHA256Hasher.digest(pick(tokens)), permission: pick(permissions))
        case 16..<18: return .revokeToken(hash: SHA256Hasher.digest(pick(tokens)))
        case 18..<23: return .setPermission(person: person, permission: participantPermission)
        default:
            let seq = rng.next() % 20
            return .remove(
                person: person,
                cutoffs: [
                    .init(
                        device: participantDevice, seq: seq, hash: [UInt8](repeating: UInt8(seq), count: 32))
                ])
        }
    }
}
