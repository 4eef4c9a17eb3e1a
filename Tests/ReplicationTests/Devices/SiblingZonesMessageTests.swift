import Store
import Testing

@testable import Replication

/// The sibling-zones message (0x47) round-trips, and a malformed one is refused with the
/// field that is wrong.
@Suite struct SiblingZonesMessageTests {
    let owner = PeerID(digest: Array(repeating: 7, count: 32))!

    @Test func aListRoundTrips() throws {
        let message = SiblingZonesMessage([
            .init(zone: "a", shared: false, owner: owner),
            .init(zone: "b", shared: true, owner: owner, address: "[::1]:7733"),
        ])
        #expect(try SiblingZonesMessage(frame: message.frame()) == message)
        #expect(try SiblingZonesMessage(frame: SiblingZonesMessage([]).frame()).zones.isEmpty)
    }

    @Test func aStoreOtherThanPrivateOrSharedAndATruncatedEntryAreRefused() throws {
        var payload = SiblingZonesMessage([.init(zone: "a", shared: true, owner: owner)]).frame().fullPayload
        payload[2 + 4 + 1] = 2  // after the count, the zone's length and "a": the store byte
        let frame = Frame(type: .siblingZones, payload: payload)
        #expect(throws: WireError.invalidValue(field: "store", reason: "must be 0 or 1")) {
            try SiblingZonesMessage(frame: frame)
        }
        let truncated = Frame(type: .siblingZones, payload: Array(payload.dropLast(10)))
        #expect(throws: WireError.self) { try SiblingZonesMessage(frame: truncated) }
    }
}
