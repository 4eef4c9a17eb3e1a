import Store
import Testing

@testable import Replication

/// Each author's chain accepts only its next set; duplicates, gaps, equivocation and a
/// removed device's sets around its cut-off get their own verdicts.
@Suite struct AuthorChainsTests {
    var author: PeerIdentity { SignedSetFixtures.devices[0] }
    var other: PeerIdentity { SignedSetFixtures.devices[1] }
    let zone = "zone-a"

    @Test func setsAcceptedInOrderAdvanceTheirAuthorsChainAndRepeatsAreDuplicates() {
        let chain = SignedSetFixtures.chain(of: author, in: zone, count: 3)
        let others = SignedSetFixtures.chain(of: other, in: zone, count: 1)
        var chains = AuthorChains(zone: zone)
        #expect(chains.accept(chain[0].header) == .next)
        #expect(chains.accept(others[0].header) == .next)
        #expect(chains.accept(chain[1].header) == .next)
        #expect(chains.accept(chain[0].header) == .duplicate)
        #expect(chains.check(chain[1].header) == .duplicate)
        #expect(chains.held(author.peerID) == chain[1].header.link)
        #expect(chains.hash(of: author.peerID, seq: 1) == chain[0].hash)
        #expect(chains.vector == SeqVector([author.peerID: 2, other.peerID: 1]))
        // A duplicate changes nothing.
        let before = chains
        chains.accept(chain[0].header)
        #expect(chains == before)
        #expect(chains.accept(chain[2].header) == .next)
        #expect(chains.vector[author.peerID] == 3)
    }

    @Test func aSetBeyondTheNextAsksForTheMissingOnesAndWaits() {
        let chain = SignedSetFixtures.chain(of: author, in: zone, count: 5)
        var chains = AuthorChains(zone: zone)
        #expect(chains.accept(chain[3].header) == .gap(need: 1...3))
        #expect(chains.vector[author.peerID] == 0)
        chains.accept(chain[0].header)
        #expect(chains.check(chain[3].header) == .gap(need: 2...3))
        chains.accept(chain[1].header)
        chains.accept(chain[2].header)
        #expect(chains.accept(chain[3].header) == .next)
    }

    @Test func aSecondSetAtATakenPlaceIsAConflict() {
        let chain = SignedSetFixtures.chain(of: author, in: zone, count: 2)
        // The author signs another set 2, and a set 3 following it.
        let fork = SignedSetFixtures.chain(
            of: author, in: zone, count: 2, from: 2, after: chain[0].hash, tag: "fork")
        var chains = AuthorChains(zone: zone)
        chains.accept(chain[0].header)
        chains.accept(chain[1].header)
        #expect(chains.accept(fork[0].header) == .conflict)
        #expect(chains.accept(fork[1].header) == .conflict)
        #expect(chains.held(author.peerID) == chain[1].header.link)
    }

    @Test func aRemovedDevicesSetsAfterItsCutoffAreRefused() {
        let chain = SignedSetFixtures.chain(of: author, in: zone, count: 4)
        var chains = AuthorChains(zone: zone, cutoffs: [author.peerID: chain[2].header.link])
        #expect(chains.accept(chain[3].header) == .afterCutoff)
        // Below a cut-off, sets are placed from the cut-off down: each one seen makes the one
        // before it checkable.
        #expect(chains.accept(chain[0].header) == .unanchored(need: 2...3))
        #expect(chains.accept(chain[2].header) == .gap(need: 1...2))
        #expect(chains.accept(chain[1].header) == .gap(need: 1...1))
        for set in chain.prefix(3) { #expect(chains.accept(set.header) == .next) }
        #expect(chains.accept(chain[3].header) == .afterCutoff)
        #expect(chains.vector[author.peerID] == 3)
    }

    @Test func aRemovedDeviceCannotBackdateANewSetBelowItsCutoff() {
        let chain = SignedSetFixtures.chain(of: author, in: zone, count: 5)
        let cutoff = [author.peerID: chain[3].header.link]  // seq 4
        // After its removal, the device signs new sets at seqs it already used: 4, then 3 and 4.
        let atCutoff = SignedSetFixtures.chain(
            of: author, in: zone, count: 1, from: 4, after: chain[2].hash, tag: "late")
        let below = SignedSetFixtures.chain(
            of: author, in: zone, count: 2, from: 3, after: chain[1].hash, tag: "late")

        // A receiver that held the chain up to 3 when it learned of the removal.
        var holder = AuthorChains(zone: zone)
        for set in chain.prefix(3) { holder.accept(set.header) }
        holder.raiseCutoffs(cutoff)
        #expect(holder.accept(atCutoff[0].header) == .offCutoffChain)
        #expect(holder.accept(below[0].header) == .conflict)
        #expect(holder.accept(below[1].header) == .offCutoffChain)
        #expect(holder.accept(chain[3].header) == .next)
        #expect(holder.accept(chain[4].header) == .afterCutoff)

        // A receiver that held only set 1: the backdated set 3 cannot be placed until the real
        // chain down from the cut-off has been seen, and is then refused.
        var late = AuthorChains(zone: zone)
        late.accept(chain[0].header)
        late.raiseCutoffs(cutoff)
        #expect(late.accept(below[0].header) == .unanchored(need: 4...4))
        #expect(late.accept(chain[1].header) == .unanchored(need: 3...4))
        #expect(late.accept(chain[3].header) == .gap(need: 2...3))
        #expect(late.accept(below[0].header) == .offCutoffChain)
        #expect(late.accept(chain[2].header) == .gap(need: 2...2))
        for set in chain[1...3] { #expect(late.accept(set.header) == .next) }
        #expect(late.accept(below[0].header) == .conflict)
        #expect(late.vector[author.peerID] == 4)
    }

    @Test func cutoffsOnlyGrow() {
        let chain = SignedSetFixtures.chain(of: author, in: zone, count: 3)
        var chains = AuthorChains(zone: zone, cutoffs: [author.peerID: chain[1].header.link])
        chains.raiseCutoffs([author.peerID: chain[0].header.link])
        #expect(chains.cutoff(of: author.peerID) == chain[1].header.link)
        chains.raiseCutoffs([author.peerID: chain[2].header.link])
        #expect(chains.cutoff(of: author.peerID) == chain[2].header.link)
        // Two cut-offs at one seq (the device equivocated there): every peer keeps the smaller hash.
        let fork = SignedSetFixtures.chain(
            of: author, in: zone, count: 1, from: 3, after: chain[1].hash, tag: "fork")
        let links = [chain[2].header.link, fork[0].header.link]
        let smaller = links.min { $0.hash.lexicographicallyPrecedes($1.hash) }
        for order in [links, links.reversed()] {
            var copy = AuthorChains(zone: zone)
            for link in order { copy.raiseCutoffs([author.peerID: link]) }
            #expect(copy.cutoff(of: author.peerID) == smaller)
        }
    }
}
