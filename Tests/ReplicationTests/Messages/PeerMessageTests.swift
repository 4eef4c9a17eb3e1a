import Store
import Support
import Testing

@testable import Replication

/// One sample of every message, shared by the round-trip and truncation tables.
enum SampleMessages {
    static func peer(_ n: UInt8) -> PeerID { PeerID(digest: [UInt8](repeating: n, count: 32))! }
    static let hash = ContentHash(bytes: (0..<32).map { UInt8($0) })!
    static let clock = VectorClock([peer(1): 42, peer(2): 1 << 40])
    static let set = ChangeSet(
        zone: "zone-a", since: VectorClock([peer(1): 3]), until: clock,
        objects: [
            ObjectChange(
                entity: .tag, id: "t1",
                fields: [
                    FieldChange(
                        field: TagField.name, value: .text("sea"), stamp: Stamp(hlc: 40, peer: peer(1)))
                ])
        ])

    static let all: [PeerMessage] = [
        .zoneClocks(
            ZoneClocks([.init(zone: "zone-a", clock: clock), .init(zone: "zone-b", clock: VectorClock())])),
        .zoneClocks(ZoneClocks([])),
        .changeSet(ChangeSetMessage(set)),
        .ack(ChangeSetAck(zone: "zone-a", clock: clock)),
        .notReady(ChangeSetNotReady(zone: "zone-a", clock: VectorClock())),
        .dataRequest(DataRequest(hash: hash, offset: 1 << 33, length: 262_144)),
        .dataChunk(DataChunk(hash: hash, offset: 7, isFinal: true, bytes: [1, 2, 3])),
        .dataChunk(DataChunk(hash: hash, offset: 0, isFinal: false, bytes: [])),
        .dataError(DataError(hash: hash, reason: .unavailable, message: "not here yet")),
        .dataAvailable(DataAvailable(hash: hash)),
        .ping(Ping(nonce: 9)),
        .pong(Pong(nonce: .max)),
        .error(ErrorMessage(code: .paused, message: "paused by its owner")),
        .changesRefused(
            ChangesRefused(
                zone: "zone-a",
                refusals: [
                    Refusal(
                        entity: .tag, id: "t1", reason: "t1 may not write to this share",
                        fields: [FieldStamp(code: TagField.name.code, stamp: Stamp(hlc: 40, peer: peer(1)))]),
                    Refusal(entity: .link, id: "p/t1", reason: "refers to tag t1, missing in this zone"),
                ], versions: set.objects)),
        .changesRefused(ChangesRefused(zone: "zone-a", refusals: [], versions: [])),
        .addresses(
            Addresses([PeerAddress(host: "192.0.2.7", port: 7733), PeerAddress(host: "2001:db8::1", port: 1)])
        ),
        .deviceList(DeviceListMessage([[1, 2, 3], [], Array(repeating: 9, count: 300)])),
        .membershipOperations(
            MembershipOperationsMessage(
                zone: "zone-1", operations: [[1, 2, 3], Array(repeating: 7, count: 500)])),
        .setVector(SetVectorMessage(zone: "zone-a", vector: SeqVector([peer(1): 3, peer(2): 1 << 40]))),
        .setVector(SetVectorMessage(zone: "zone-b", vector: SeqVector())),
        .signedSets(SignedSetsMessage(zone: "zone-a", certificates: [[1, 2], []], sets: [[9, 9, 9], []])),
        .signedSets(
            SignedSetsMessage(zone: "zone-a", certificates: [], sets: [Array(repeating: 5, count: 700)])),
        .setsTaken(SetsTakenMessage(zone: "zone-a")),
        .neighbours(NeighboursMessage([peer(2), peer(1), peer(2)])),
        .neighbours(NeighboursMessage([])),
        .addressRecords(
            AddressRecordsMessage([
                AddressRecord(
                    device: peer(3), version: 1_764_000_000_000,
                    addresses: [
                        PeerAddress(host: "192.0.2.7", port: 7733), PeerAddress(host: "2001:db8::7", port: 1),
                    ],
                    signature: Array(repeating: 9, count: 64), certificate: Array(repeating: 4, count: 300)),
                AddressRecord(
                    device: peer(4), version: 2, addresses: [], signature: Array(repeating: 1, count: 64),
                    certificate: []),
            ])),
    ]
}

@Suite struct PeerMessageTests {
    @Test(arguments: SampleMessages.all)
    func everyMessageRoundTripsThroughAFrame(message: PeerMessage) throws {
        let frame = message.frame()
        let bytes = try frame.encoded()
        var decoder = FrameDecoder()
        decoder.feed(bytes)
        guard case .frame(let received) = try decoder.next() else {
            Issue.record("no frame decoded")
            return
        }
        #expect(try PeerMessage(frame: received) == message)
    }

    @Test(arguments: SampleMessages.all)
    func everyTruncationIsATypedError(message: PeerMessage) {
        let frame = message.frame()
        for length in 0..<frame.payload.count {
            let cut = Frame(type: frame.type, payload: Array(frame.payload.prefix(length)))
            #expect(throws: WireError.self, "\(frame.type) cut to \(length) bytes") {
                try PeerMessage(frame: cut)
            }
        }
    }

    @Test(arguments: SampleMessages.all)
    func trailingBytesAreRefused(message: PeerMessage) {
        var frame = message.frame()
        frame.payload.append(0)
        #expect(throws: WireError.self) { try PeerMessage(frame: frame) }
    }

    /// A neighbours message names each device once, in byte order, within the bound.
    @Test func neighboursOutOfOrderRepeatedOrTooManyAreRefused() throws {
        #expect(
            NeighboursMessage([SampleMessages.peer(2), SampleMessages.peer(1), SampleMessages.peer(2)])
                .devices == [SampleMessages.peer(1), SampleMessages.peer(2)])
        func frame(_ devices: [PeerID]) -> Frame {
            var writer = BinaryWriter()
            writer.write(UInt16(devices.count))
            for device in devices { writer.write(device) }
            return Frame(type: .neighbours, payload: writer.bytes)
        }
        for devices in [
            [SampleMessages.peer(2), SampleMessages.peer(1)],
            [SampleMessages.peer(1), SampleMessages.peer(1)],
        ] {
            #expect(
                throws: WireError.invalidValue(
                    field: "neighbours", reason: "not in byte order without repeats")
            ) {
                try PeerMessage(frame: frame(devices))
            }
        }
        var limits = MessageLimits()
        limits.maxNeighbours = 1
        #expect(throws: WireError.fieldTooLarge(field: "neighbour count", length: 2, maximum: 1)) {
            try PeerMessage(frame: frame([SampleMessages.peer(1), SampleMessages.peer(2)]), limits: limits)
        }
    }

    @Test func typeNumbersAreTheDocumentedOnes() {
        let types = SampleMessages.all.map { $0.frame().type.rawValue }
        #expect(Set(types) == Set(2...21))
    }

    @Test func helloAndUnknownTypesAreUnexpectedHere() {
        for type: UInt8 in [0x00, 0x01, 0x16, 0xFF] {
            #expect(throws: WireError.unexpectedMessage(type: type, expected: "a replication message")) {
                try PeerMessage(frame: Frame(type: MessageType(rawValue: type), payload: []))
            }
        }
    }
}
