import Store
import TestSupport
import Testing

@testable import Replication

/// A peer's device list is believed only when every entry checks and the connection's own
/// device is on it: a stranger cannot pass for someone else's person, nor alter their list.
@Suite struct PersonProofTests {
    static let keys: [PeerIdentity] = {
        let temp = try! TestDirectory()
        defer { temp.remove() }
        return (0..<3).map { try! PeerIdentity.loadOrCreate(directory: temp.file("device-\($0)")) }
    }()

    @Test func aDeviceOnItsOwnListProvesItsPerson() throws {
        var list = DeviceList.found(by: Self.keys[0], name: "laptop", at: 1)
        _ = try list.append(
            .add(certificate: Self.keys[1].certificateDER, name: "desktop"), by: Self.keys[0], at: 2)
        let entries = list.entries.map(\.encoded)
        #expect(try PersonProof.check(entries, device: Self.keys[0].peerID).person == list.person)
        #expect(try PersonProof.check(entries, device: Self.keys[1].peerID).person == list.person)
    }

    @Test func aStrangerPresentingSomeoneElsesListIsNotBelieved() throws {
        let list = DeviceList.found(by: Self.keys[0], name: "laptop", at: 1)
        let stranger = Self.keys[2].peerID
        #expect(throws: PersonProofError.notOnList(device: stranger, person: list.person)) {
            try PersonProof.check(list.entries.map(\.encoded), device: stranger)
        }
    }

    @Test func anAlteredMissingOrEmptyListIsNotBelieved() throws {
        var list = DeviceList.found(by: Self.keys[0], name: "laptop", at: 1)
        _ = try list.append(
            .add(certificate: Self.keys[2].certificateDER, name: "thief"), by: Self.keys[0], at: 2)
        var entries = list.entries.map(\.encoded)
        // The stranger rewrites the name in the entry that adds it: the signature breaks.
        var altered = entries[1]
        altered[altered.count - 70] ^= 1
        #expect(throws: PersonProofError.self) {
            try PersonProof.check([entries[0], altered], device: Self.keys[2].peerID)
        }
        // The entry adding it without the founding it was written after.
        #expect(throws: PersonProofError.self) {
            try PersonProof.check([entries[1]], device: Self.keys[2].peerID)
        }
        entries.removeFirst()
        #expect(throws: PersonProofError.empty) { try PersonProof.check([], device: Self.keys[0].peerID) }
    }
}
