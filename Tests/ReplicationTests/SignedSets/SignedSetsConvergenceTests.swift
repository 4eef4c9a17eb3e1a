import Store
import TestSupport
import Testing

@testable import Replication

/// Several authors' chains, a removed device with backdated and late sets, and a set forged
/// under another device's name, delivered to several receivers in random orders with
/// duplicates and losses, gaps filled on request and the rest by anti-entropy: every
/// receiver ends with the same accepted sets and the same seq vector, and none of the
/// forged or late ones.
@Suite struct SignedSetsConvergenceTests {
    let zone = "zone-p"
    var devices: [PeerIdentity] { SignedSetFixtures.devices }

    /// What the authors wrote in one history, and what every receiver should end with.
    struct History {
        var real: [PeerID: [SignedChangeSet]] = [:]
        var unwanted: [SignedChangeSet] = []
        var cutoffs: [PeerID: ChainLink] = [:]
        var expected = SeqVector()

        /// The real set `seq` of `author`, as any honest peer holding it would send it.
        func set(_ author: PeerID, _ seq: UInt64) -> SignedChangeSet? {
            guard let chain = real[author], seq >= 1, seq <= UInt64(chain.count) else { return nil }
            return chain[Int(seq - 1)]
        }
    }

    func history(_ random: inout SeededRandom) -> History {
        var history = History()
        for device in devices.prefix(3) {
            let chain = SignedSetFixtures.chain(
                of: device, in: zone, count: Int.random(in: 1...8, using: &random))
            history.real[device.peerID] = chain
            history.expected.advance(device.peerID, to: UInt64(chain.count))
        }
        // Device 3 was removed at `cut`; it wrote sets after, and backdated others below.
        let removed = devices[3]
        let chain = SignedSetFixtures.chain(
            of: removed, in: zone, count: Int.random(in: 2...8, using: &random))
        let cut = Int.random(in: 1..<chain.count, using: &random)
        history.real[removed.peerID] = chain
        history.cutoffs[removed.peerID] = chain[cut - 1].header.link
        history.expected.advance(removed.peerID, to: UInt64(cut))
        let from = Int.random(in: 1...cut, using: &random)
        history.unwanted += SignedSetFixtures.chain(
            of: removed, in: zone, count: Int.random(in: 1...3, using: &random), from: UInt64(from),
            after: from == 1 ? SignedSetHeader.noPrevious : chain[from - 2].hash, tag: "backdated")
        // Device 4 signs a set and claims device 0 wrote it.
        let own = SignedChangeSet.sign(
            zone: zone, seq: 1, prevHash: SignedSetHeader.noPrevious, body: [4], by: devices[4])
        let claimed = SignedSetHeader(
            zone: zone, author: devices[0].peerID, seq: 1, prevHash: own.header.prevHash,
            bodyHash: own.header.bodyHash, bodyLength: own.header.bodyLength, signature: own.header.signature)
        history.unwanted.append(SignedChangeSet(header: claimed, body: own.body))
        return history
    }

    /// One receiver: checks signatures, then chains; keeps what waits, asks for what is
    /// missing (the answers arrive later, at random places in its queue).
    struct Receiver {
        var chains: AuthorChains
        var accepted: Set<[UInt8]> = []
        var waiting: [[UInt8]: SignedChangeSet] = [:]
        var queue: [SignedChangeSet] = []
        let keys = PublicKeyCache(capacity: 2)
        var steps = 0

        mutating func run(_ history: History, zone: String, random: inout SeededRandom) {
            while !queue.isEmpty, steps < 100_000 {
                steps += 1
                let set = queue.removeFirst()
                guard
                    (try? set.verify(zone: zone, keys: keys, certificates: SignedSetFixtures.certificate))
                        != nil
                else { continue }
                offer(set, history, random: &random)
                retryWaiting(history, random: &random)
            }
        }

        mutating func offer(_ set: SignedChangeSet, _ history: History, random: inout SeededRandom) {
            switch chains.accept(set.header) {
            case .next: accepted.insert(set.hash)
            case .gap(let need), .unanchored(let need):
                if waiting.updateValue(set, forKey: set.hash) == nil {
                    for seq in need {
                        guard let missing = history.set(set.header.author, seq) else { continue }
                        queue.insert(missing, at: Int.random(in: 0...queue.count, using: &random))
                    }
                }
            case .duplicate, .conflict, .afterCutoff, .offCutoffChain: break
            }
        }

        mutating func retryWaiting(_ history: History, random: inout SeededRandom) {
            var before: AuthorChains
            repeat {
                before = chains
                for (hash, set) in waiting {
                    switch chains.accept(set.header) {
                    case .next:
                        accepted.insert(hash)
                        waiting[hash] = nil
                    case .gap, .unanchored: break
                    case .duplicate, .conflict, .afterCutoff, .offCutoffChain: waiting[hash] = nil
                    }
                }
            } while chains != before
        }
    }

    @Test func receiversOfAnyDeliveryOrderEndWithTheSameSetsAndVectors() {
        let seed = SeededRandom.chooseSeed()
        var random = SeededRandom(seed: seed)
        let replay = "seed \(seed) (replay: PEERSHARE_TEST_SEED=\(seed))"
        for round in 0..<25 {
            let history = history(&random)
            let all = history.real.values.flatMap { $0 } + history.unwanted
            let wanted = Set(
                history.expected.entries.flatMap { author, seq in
                    (1...seq).map { history.set(author, $0)!.hash }
                })
            var results: [(SeqVector, Set<[UInt8]>)] = []
            for _ in 0..<3 {
                var receiver = Receiver(chains: AuthorChains(zone: zone, cutoffs: history.cutoffs))
                // Each set arrives zero to three times, in any order.
                for set in all {
                    for _ in 0..<Int.random(in: 0...3, using: &random) { receiver.queue.append(set) }
                }
                receiver.queue.shuffle(using: &random)
                receiver.run(history, zone: zone, random: &random)
                // Anti-entropy with a peer holding every valid set fills in the rest.
                var exchanges = 0
                while case let missing = history.expected.missing(from: receiver.chains.vector),
                    !missing.isEmpty,
                    exchanges < 20
                {
                    exchanges += 1
                    receiver.queue = missing.flatMap { range in
                        range.seqs.map { history.set(range.author, $0)! }
                    }
                    receiver.run(history, zone: zone, random: &random)
                }
                #expect(receiver.steps < 100_000, "\(replay), round \(round): delivery did not settle")
                #expect(receiver.chains.vector == history.expected, "\(replay), round \(round)")
                #expect(receiver.accepted == wanted, "\(replay), round \(round): accepted sets")
                results.append((receiver.chains.vector, receiver.accepted))
            }
            #expect(Set(results.map(\.0)).count == 1, "\(replay), round \(round): vectors differ")
            #expect(Set(results.map(\.1)).count == 1, "\(replay), round \(round): accepted sets differ")
        }
    }
}
