import Store
import Testing

@testable import Replication

@Suite struct SessionDataTests {
    static let hash = ContentHash(bytes: [UInt8](repeating: 0xC3, count: 32))!
    static let other = ContentHash(bytes: [UInt8](repeating: 0xD4, count: 32))!
    let hash = SessionDataTests.hash

    static var small: SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.dataChunkSize = 100
        configuration.dataWindow = 3
        configuration.dataRetryInterval = .seconds(5)
        return configuration
    }

    func requests(_ probe: SessionProbe) -> [DataRequest] {
        probe.sent.compactMap { if case .dataRequest(let r) = $0 { r } else { nil } }
    }

    @Test func aTransferResumesFromThePartialFileKeepsAWindowAndFinishes() {
        var probe = SessionProbe(configuration: Self.small)
        let item = DataItem(hash: hash, size: 650, store: .shared)
        probe.handle(.dataWanted([item]))
        #expect(probe.requests == [.openPartial(item)])
        probe.handle(.partialOpened(hash, .opened(existingBytes: 250)))
        #expect(probe.last.contains(.notify(.dataFetchStarted(hash, offset: 250, size: 650))))
        #expect(requests(probe).map(\.offset) == [250, 350, 450], "three requests in flight, from byte 250")
        var written: [UInt8] = []
        for offset in stride(from: 250, to: 650, by: 100) {
            let length = min(100, 650 - offset)
            let bytes = [UInt8](repeating: UInt8(offset / 100), count: length)
            probe.receive(
                DataChunk(hash: hash, offset: UInt64(offset), isFinal: offset + length == 650, bytes: bytes))
            for case .writeData(let h, let b) in probe.last where h == hash { written += b }
        }
        #expect(written.count == 400)
        #expect(probe.requests.last == .finishData(hash))
        probe.handle(.dataFinished(hash, .stored))
        #expect(probe.last.contains(.notify(.dataFetched(hash, size: 650))))
        #expect(probe.session.pendingDataCount == 0)
    }

    @Test func photosWaitingToBePublishedHoldBackNewTransfers() {
        var configuration = Self.small
        configuration.dataParallelFiles = 8
        configuration.dataPublishBacklog = 2
        var probe = SessionProbe(configuration: configuration)
        let items = (1...3).map { n in
            DataItem(
                hash: ContentHash(bytes: [UInt8](repeating: UInt8(n), count: 32))!, size: 10, store: .shared)
        }
        probe.handle(.dataWanted(items))
        #expect(probe.requests == [.openPartial(items[0])])
        // Each photo is opened as soon as the one before is fully requested, and received.
        for (index, item) in items.prefix(2).enumerated() {
            probe.handle(.partialOpened(item.hash, .opened(existingBytes: 0)))
            #expect(requests(probe).last?.hash == item.hash)
            #expect(probe.requests.contains(.openPartial(items[index + 1])))
            probe.receive(
                DataChunk(hash: item.hash, offset: 0, isFinal: true, bytes: [UInt8](repeating: 1, count: 10)))
            #expect(probe.requests.last == .finishData(item.hash))
        }
        // Two photos wait for the committer: the third is requested, but no fourth opened.
        let fourth = DataItem(hash: Self.other, size: 10, store: .shared)
        probe.handle(.dataWanted([fourth]))
        probe.handle(.partialOpened(items[2].hash, .opened(existingBytes: 0)))
        #expect(requests(probe).last?.hash == items[2].hash)
        #expect(!probe.requests.contains(.openPartial(fourth)))
        probe.handle(.dataFinished(items[0].hash, .stored))
        #expect(probe.requests.contains(.openPartial(fourth)), "one published: the next transfer starts")
    }

    @Test func aChunkThatAnswersNoRequestIsAProtocolError() {
        var probe = SessionProbe(configuration: Self.small)
        probe.receive(DataChunk(hash: hash, offset: 0, isFinal: true, bytes: [1]))
        #expect(probe.closeReason == .protocolViolation("a data chunk answers no request"))
    }

    @Test func aChunkLongerOrShorterThanItsRequestIsAProtocolError() {
        var probe = SessionProbe(configuration: Self.small)
        probe.handle(.dataWanted([DataItem(hash: hash, size: 1_000, store: .shared)]))
        probe.handle(.partialOpened(hash, .opened(existingBytes: 0)))
        probe.receive(
            DataChunk(hash: hash, offset: 0, isFinal: false, bytes: [UInt8](repeating: 0, count: 99)))
        #expect(probe.closeReason == .protocolViolation("a data chunk of 99 bytes answers a request of 100"))
    }

    @Test func dataThePeerLacksIsAskedForAgainWhenItSaysItArrived() {
        var probe = SessionProbe(configuration: Self.small)
        probe.handle(.dataWanted([DataItem(hash: hash, size: 50, store: .shared)]))
        probe.handle(.partialOpened(hash, .opened(existingBytes: 0)))
        probe.receive(DataError(hash: hash, reason: .unavailable, message: "not yet"))
        #expect(probe.requests == [.closePartial(hash, discard: false)])
        #expect(probe.session.pendingDataCount == 1)
        probe.receive(DataAvailable(hash: hash))
        #expect(probe.requests == [.openPartial(DataItem(hash: hash, size: 50, store: .shared))])
    }

    /// A peer that does not share the photo with this side yet (an owner that has not
    /// ratified this device's join) refuses its data: asked again when the peer first
    /// announces a zone on the connection, not each time it sends zone clocks (found by
    /// `MembershipScheduleTests`, seed 1583: the joiner stayed without the data once the
    /// owner ratified it).
    @Test func dataThePeerRefusedAsNotSharedIsAskedForAgainWhenItAnnouncesZones() {
        var probe = SessionProbe(configuration: Self.small)
        let item = DataItem(hash: hash, size: 50, store: .shared)
        probe.handle(.dataWanted([item]))
        probe.handle(.partialOpened(hash, .opened(existingBytes: 0)))
        probe.receive(
            DataError(hash: hash, reason: .unknown, message: "no photo with this data is shared with you"))
        #expect(probe.requests == [.closePartial(hash, discard: false)])
        #expect(probe.session.pendingDataCount == 0)
        probe.handle(.dataWanted([item]))
        #expect(probe.requests.isEmpty, "not asked again for nothing")
        probe.receive(ZoneClocks([.init(zone: "zone-1", clock: VectorClock())]))
        #expect(probe.requests.contains(.openPartial(item)))
        // Refused again: zone clocks sent again do not make this side ask again.
        probe.handle(.partialOpened(hash, .opened(existingBytes: 0)))
        probe.receive(
            DataError(hash: hash, reason: .unknown, message: "no photo with this data is shared with you"))
        probe.receive(ZoneClocks([.init(zone: "zone-1", clock: VectorClock())]))
        #expect(!probe.requests.contains(.openPartial(item)))
    }

    @Test func setAsideDataIsRetriedAfterTheInterval() {
        var probe = SessionProbe(configuration: Self.small)
        probe.handle(.dataWanted([DataItem(hash: hash, size: 50, store: .shared)]))
        probe.handle(.partialOpened(hash, .busy))
        probe.handle(.tick)
        probe.advance(.seconds(4))
        probe.handle(.tick)
        #expect(probe.requests.isEmpty)
        probe.advance(.seconds(1))
        probe.handle(.tick)
        #expect(probe.requests == [.openPartial(DataItem(hash: hash, size: 50, store: .shared))])
    }

    @Test func dataShorterThanThePhotoSaysIsDiscarded() {
        var probe = SessionProbe(configuration: Self.small)
        probe.handle(.dataWanted([DataItem(hash: hash, size: 150, store: .shared)]))
        probe.handle(.partialOpened(hash, .opened(existingBytes: 0)))
        probe.receive(DataChunk(hash: hash, offset: 0, isFinal: true, bytes: [1, 2, 3]))
        #expect(probe.requests == [.writeData(hash, [1, 2, 3]), .closePartial(hash, discard: true)])
        probe.receive(DataError(hash: hash, reason: .badRange, message: "past the end"))
        #expect(probe.closeReason == nil, "the late answer to the second request is expected")
        probe.handle(.dataWanted([DataItem(hash: hash, size: 150, store: .shared)]))
        #expect(probe.requests.isEmpty, "not asked again on this connection")
    }

    @Test func smallPhotosArePipelinedAcrossFiles() {
        var probe = SessionProbe(configuration: Self.small)
        let items = [
            DataItem(hash: hash, size: 30, store: .shared),
            DataItem(hash: Self.other, size: 30, store: .shared),
        ]
        probe.handle(.dataWanted(items))
        probe.handle(.partialOpened(hash, .opened(existingBytes: 0)))
        #expect(
            probe.requests.contains(.openPartial(items[1])),
            "the next file opens once the first is fully asked for")
        probe.handle(.partialOpened(Self.other, .opened(existingBytes: 0)))
        #expect(requests(probe).map(\.hash) == [Self.other])
    }

    @Test func aMismatchingHashIsNotFetchedAgainFromThisPeer() {
        var probe = SessionProbe(configuration: Self.small)
        let item = DataItem(hash: hash, size: 1, store: .shared)
        probe.handle(.dataWanted([item]))
        probe.handle(.partialOpened(hash, .opened(existingBytes: 0)))
        probe.receive(DataChunk(hash: hash, offset: 0, isFinal: true, bytes: [9]))
        probe.handle(.dataFinished(hash, .mismatch))
        #expect(
            probe.last.contains(
                .notify(.dataFetchFailed(hash, "the received data does not match its SHA-256"))))
        probe.handle(.dataWanted([item]))
        #expect(probe.requests.isEmpty)
    }

    @Test func requestsAreServedInOrderAndWaitingPeersAreToldWhenDataArrives() {
        var probe = SessionProbe(configuration: Self.small)
        let request = DataRequest(hash: hash, offset: 0, length: 10)
        probe.receive(request)
        #expect(probe.requests == [.readData(request)])
        probe.handle(.dataRead(request, .refused(.unavailable, "not here yet")))
        #expect(
            probe.sent == [.dataError(DataError(hash: hash, reason: .unavailable, message: "not here yet"))])
        probe.handle(.dataArrived(hash))
        #expect(probe.sent == [.dataAvailable(DataAvailable(hash: hash))])
        probe.receive(request)
        probe.handle(.dataRead(request, .bytes([7, 7], isFinal: true)))
        #expect(probe.sent == [.dataChunk(DataChunk(hash: hash, offset: 0, isFinal: true, bytes: [7, 7]))])
        #expect(probe.last.contains(.notify(.dataServed(hash, count: 2))))
    }

    @Test func nothingIsRequestedBeforeTheHello() {
        var probe = SessionProbe(configuration: Self.small, established: false)
        probe.handle(.dataWanted([DataItem(hash: hash, size: 10, store: .shared)]))
        #expect(probe.requests.isEmpty)
        probe.receive(hello: Hello(peerID: SessionProbe.participant))
        #expect(probe.requests.last == .openPartial(DataItem(hash: hash, size: 10, store: .shared)))
    }
}
