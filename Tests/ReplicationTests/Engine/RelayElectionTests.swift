import Store
import TestSupport
import Testing

@testable import Replication

/// Every member connected to an author and to a peer the author is not connected to computes
/// the same election from the same lists: exactly `RelayElection.count` of them send the peer
/// the author's sets, and which ones changes with the author and the peer.
@Suite struct RelayElectionTests {
    private func peer(_ random: inout SeededRandom) -> PeerID { PeerID(digest: random.bytes(32))! }

    @Test func membersWithTheSameViewElectExactlyTheCount() {
        let seed = SeededRandom.chooseSeed()
        var random = SeededRandom(seed: seed)
        for _ in 0..<200 {
            let (author, target) = (peer(&random), peer(&random))
            let candidates = Set((0..<Int.random(in: 1...48, using: &random)).map { _ in peer(&random) })
            let elected = candidates.filter {
                RelayElection.elects($0, toPass: author, to: target, among: candidates)
            }
            #expect(elected.count == min(RelayElection.count, candidates.count), "seed \(seed)")
            // What the author computes to send them these sets first.
            #expect(
                Set(RelayElection.elected(toPass: author, to: target, among: candidates)) == elected,
                "seed \(seed)")
            // A member counts itself whether or not its own list names it (the lists a peer
            // sends leave out the peer they are sent to).
            for member in candidates {
                #expect(
                    RelayElection.elects(
                        member, toPass: author, to: target, among: candidates.subtracting([member]))
                        == elected.contains(member), "seed \(seed)")
            }
        }
    }

    @Test func theElectedChangeWithTheAuthorAndThePeer() {
        let seed = SeededRandom.chooseSeed()
        var random = SeededRandom(seed: seed)
        let candidates = Set((0..<10).map { _ in peer(&random) })
        let target = peer(&random)
        var timesElected: [PeerID: Int] = [:]
        for _ in 0..<500 {
            let author = peer(&random)
            for member in candidates
            where RelayElection.elects(member, toPass: author, to: target, among: candidates) {
                timesElected[member, default: 0] += 1
            }
        }
        // 1,000 elections among 10 members: each about 100 times, none never or always.
        #expect(timesElected.count == candidates.count, "seed \(seed)")
        #expect(
            timesElected.values.allSatisfy { (50...150).contains($0) },
            "seed \(seed): \(timesElected.values.sorted())")
    }

    @Test func aMemberOutsideTheCandidatesIsElectedOnlyWhenNearerThanTheCountOfThem() {
        var random = SeededRandom(seed: 17)
        let (author, target) = (peer(&random), peer(&random))
        let candidates = Set((0..<5).map { _ in peer(&random) })
        let elected = candidates.filter {
            RelayElection.elects($0, toPass: author, to: target, among: candidates)
        }
        // One more member that knows the other five: elected exactly when it displaces one.
        let newcomer = peer(&random)
        let everyone = candidates.union([newcomer])
        let electedWithIt = everyone.filter {
            RelayElection.elects($0, toPass: author, to: target, among: everyone)
        }
        #expect(electedWithIt.count == RelayElection.count)
        #expect(
            RelayElection.elects(newcomer, toPass: author, to: target, among: candidates)
                == electedWithIt.contains(newcomer))
        #expect(electedWithIt.subtracting([newcomer]).isSubset(of: elected))
    }
}
