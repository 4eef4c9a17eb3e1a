import Store
import Testing

@testable import Replication

/// Photo data wanted on two connections at once: only one fetches it (the claim); the other
/// waits, and asks at once when that transfer ends without the data.
@Suite struct DataClaimSessionTests {
    @Test func dataBusyOnAnotherConnectionIsAskedForAtOnceWhenThatTransferGivesUp() {
        var configuration = SessionDataTests.small
        configuration.dataRetryInterval = .seconds(30)
        var probe = SessionProbe(configuration: configuration)
        let item = DataItem(hash: SessionDataTests.hash, size: 50, store: .private)
        probe.handle(.dataWanted([item]))
        probe.handle(.partialOpened(item.hash, .busy))
        #expect(probe.requests.isEmpty)
        #expect(probe.session.pendingDataCount == 1, "still wanted")
        probe.handle(.dataClaimReleased(item.hash))
        #expect(probe.requests == [.openPartial(item)], "asked for now, not after 30 s")
    }

    @Test func dataThePeerLacksIsNotAskedForAgainWhenAnotherTransferGivesUp() {
        var probe = SessionProbe(configuration: SessionDataTests.small)
        let item = DataItem(hash: SessionDataTests.hash, size: 50, store: .private)
        probe.handle(.dataWanted([item]))
        probe.handle(.partialOpened(item.hash, .opened(existingBytes: 0)))
        probe.receive(DataError(hash: item.hash, reason: .unavailable, message: "not yet"))
        probe.handle(.dataClaimReleased(item.hash))
        #expect(probe.requests.isEmpty, "it waits for the peer's data available")
    }

    @Test func dataThePeerDoesNotHaveIsNoLongerPendingOnItsConnection() {
        var probe = SessionProbe(configuration: SessionDataTests.small)
        let item = DataItem(hash: SessionDataTests.hash, size: 50, store: .private)
        probe.handle(.dataWanted([item]))
        probe.handle(.partialOpened(item.hash, .opened(existingBytes: 0)))
        probe.receive(DataError(hash: item.hash, reason: .unknown, message: "no photo"))
        #expect(probe.requests == [.closePartial(item.hash, discard: false)])
        #expect(probe.session.pendingDataCount == 0)
        #expect(!probe.last.contains { if case .notify(.dataFetchFailed) = $0 { true } else { false } })
    }
}

@Suite struct DataClaimsTests {
    @Test func releasingAClaimAnotherTransferWasRefusedCallsTheHandlerOnce() {
        let claims = DataClaims()
        let released = Recorded<ContentHash>()
        claims.onRelease { released.append($0) }
        let hash = SessionDataTests.hash
        #expect(claims.claim(hash, in: .shared))
        claims.release(hash, in: .shared)
        #expect(released.all.isEmpty, "nobody waited")
        #expect(claims.claim(hash, in: .shared))
        #expect(!claims.claim(hash, in: .shared))
        #expect(claims.claim(hash, in: .private), "another store's copy is another claim")
        claims.release(hash, in: .shared)
        #expect(released.all == [hash])
        #expect(claims.claim(hash, in: .shared))
        claims.release(hash, in: .shared)
        #expect(released.all == [hash])
    }
}
