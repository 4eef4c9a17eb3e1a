import Store
import Support
import Testing

@testable import Replication

@Suite struct MessageLimitTests {
    let hash = SampleMessages.hash

    @Test func aRequestOverTheChunkLimitIsRefused() {
        var limits = MessageLimits()
        limits.maxChunkBytes = 1_024
        let frame = DataRequest(hash: hash, offset: 0, length: 1_025).frame()
        #expect(throws: WireError.fieldTooLarge(field: "requested length", length: 1_025, maximum: 1_024)) {
            try PeerMessage(frame: frame, limits: limits)
        }
        let empty = DataRequest(hash: hash, offset: 0, length: 0).frame()
        #expect(throws: WireError.self) { try PeerMessage(frame: empty, limits: limits) }
    }

    @Test func aChunkOverTheLimitIsRefusedBeforeItsBytesAreRead() {
        var limits = MessageLimits()
        limits.maxChunkBytes = 16
        let frame = DataChunk(hash: hash, offset: 0, isFinal: false, bytes: [UInt8](repeating: 1, count: 17))
            .frame()
        #expect(throws: WireError.fieldTooLarge(field: "chunk", length: 17, maximum: 16)) {
            try PeerMessage(frame: frame, limits: limits)
        }
    }

    @Test func anAddressListOverTheLimitOrNotHostAndPortIsRefused() {
        var limits = MessageLimits()
        limits.maxAddresses = 1
        let two = Addresses([PeerAddress(host: "a", port: 1), PeerAddress(host: "b", port: 2)]).frame()
        #expect(throws: WireError.fieldTooLarge(field: "address count", length: 2, maximum: 1)) {
            try PeerMessage(frame: two, limits: limits)
        }
        for (host, port): (String, UInt16) in [("", 7733), ("host", 0), ("a b", 1), ("a/b", 1)] {
            #expect(
                throws: WireError.invalidValue(field: "address", reason: "'\(host):\(port)' is not HOST:PORT")
            ) {
                try PeerMessage(frame: Addresses([PeerAddress(host: host, port: port)]).frame())
            }
        }
        #expect(throws: WireError.invalidValue(field: "address count", reason: "no address given")) {
            try PeerMessage(frame: Addresses([]).frame())
        }
        var long = BinaryWriter()
        long.write(UInt8(1))
        long.write(String(repeating: "h", count: 256))
        long.write(UInt16(1))
        #expect(throws: WireError.fieldTooLarge(field: "host", length: 256, maximum: 255)) {
            try PeerMessage(frame: Frame(type: .addresses, payload: long.bytes))
        }
    }

    @Test func aDeviceListOverTheLimitsOrEmptyIsRefused() {
        var limits = MessageLimits()
        limits.maxDeviceListEntries = 1
        limits.maxDeviceListEntryBytes = 4
        #expect(throws: WireError.fieldTooLarge(field: "device-list entry count", length: 2, maximum: 1)) {
            try PeerMessage(frame: DeviceListMessage([[1], [2]]).frame(), limits: limits)
        }
        #expect(throws: WireError.fieldTooLarge(field: "device-list entry", length: 5, maximum: 4)) {
            try PeerMessage(frame: DeviceListMessage([[1, 2, 3, 4, 5]]).frame(), limits: limits)
        }
        #expect(throws: WireError.invalidValue(field: "device-list entry count", reason: "no entry given")) {
            try PeerMessage(frame: DeviceListMessage([]).frame())
        }
    }

    @Test func membershipOperationsOverTheLimitsOrNoneAreRefused() {
        var limits = MessageLimits()
        limits.maxMembershipOperations = 1
        limits.maxMembershipOperationBytes = 4
        #expect(throws: WireError.fieldTooLarge(field: "membership operation count", length: 2, maximum: 1)) {
            try PeerMessage(
                frame: MembershipOperationsMessage(zone: "z", operations: [[1], [2]]).frame(), limits: limits)
        }
        #expect(throws: WireError.fieldTooLarge(field: "membership operation", length: 5, maximum: 4)) {
            try PeerMessage(
                frame: MembershipOperationsMessage(zone: "z", operations: [[1, 2, 3, 4, 5]]).frame(),
                limits: limits)
        }
        #expect(
            throws: WireError.invalidValue(field: "membership operation count", reason: "no operation given")
        ) {
            try PeerMessage(frame: MembershipOperationsMessage(zone: "z", operations: []).frame())
        }
    }

    @Test func aClockWithTooManyEntriesIsRefused() {
        var limits = MessageLimits()
        limits.maxClockEntries = 1
        let frame = ChangeSetAck(zone: "z", clock: SampleMessages.clock).frame()
        #expect(throws: WireError.fieldTooLarge(field: "clock", length: 2, maximum: 1)) {
            try PeerMessage(frame: frame, limits: limits)
        }
    }

    @Test func aClockCountLargerThanThePayloadIsRefusedWithoutAllocating() {
        var writer = BinaryWriter()
        writer.write("z")
        writer.write(UInt16(4_000))
        let frame = Frame(type: .changeSetAck, payload: writer.bytes)
        #expect(throws: WireError.truncated(field: "clock", needed: 160_000, remaining: 0)) {
            try PeerMessage(frame: frame)
        }
    }

    @Test func aRepeatedClockEntryIsRefused() {
        var writer = BinaryWriter()
        writer.write("z")
        writer.write(UInt16(2))
        for _ in 0..<2 {
            writer.write(SampleMessages.peer(1))
            writer.write(UInt64(5))
        }
        #expect(throws: WireError.invalidValue(field: "clock", reason: "repeated peer or zero entry")) {
            try PeerMessage(frame: Frame(type: .changeSetAck, payload: writer.bytes))
        }
    }

    @Test func aZoneListedTwiceOrAnEmptyZoneIsRefused() {
        let twice = ZoneClocks([
            .init(zone: "z", clock: VectorClock()), .init(zone: "z", clock: VectorClock()),
        ])
        #expect(throws: WireError.invalidValue(field: "zone", reason: "zone listed twice")) {
            try PeerMessage(frame: twice.frame())
        }
        #expect(throws: WireError.invalidValue(field: "zone", reason: "empty zone ID")) {
            try PeerMessage(frame: ChangeSetAck(zone: "", clock: VectorClock()).frame())
        }
    }

    @Test func aZoneCountLargerThanThePayloadIsRefused() {
        var writer = BinaryWriter()
        writer.write(UInt32.max)
        #expect(throws: WireError.self) {
            try PeerMessage(frame: Frame(type: .zoneClocks, payload: writer.bytes))
        }
    }

    @Test func aChangeSetWhoseZonesDisagreeIsRefused() {
        var writer = BinaryWriter()
        writer.write("zone-b")
        writer.writeLengthPrefixed(ChangeSetCodec.encode(SampleMessages.set))
        #expect(
            throws: WireError.invalidValue(
                field: "change set zone", reason: "differs from the message's zone")
        ) {
            try PeerMessage(frame: Frame(type: .changeSet, payload: writer.bytes))
        }
    }

    @Test func unknownReasonAndCloseCodesSurviveDecoding() throws {
        let error = DataError(hash: hash, reason: DataErrorReason(rawValue: 200), message: "")
        #expect(try PeerMessage(frame: error.frame()) == .dataError(error))
        #expect(error.reason.description == "reason 200")
        let close = ErrorMessage(code: CloseCode(rawValue: 999), message: "bye")
        #expect(try PeerMessage(frame: close.frame()) == .error(close))
    }

    @Test func contentHashesParseHexAndPrintLowercase() {
        let hex = String(repeating: "aB", count: 32)
        let parsed = ContentHash(hex: hex)
        #expect(parsed?.hex == hex.lowercased())
        #expect(ContentHash(hex: String(hex.dropLast())) == nil)
        #expect(ContentHash(hex: String(repeating: "zz", count: 32)) == nil)
        #expect(ContentHash(bytes: [1]) == nil)
    }
}
