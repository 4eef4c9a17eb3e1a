import Foundation
import Store
import TestSupport
import Testing

@testable import Replication

/// A person's device list: founding, adding, renaming and removing devices, checked by
/// signatures, and resolved the same way whatever order the entries arrive in.
@Suite struct DeviceListTests {
    /// Device keys, made once for the suite (key generation is the slow part).
    static let keys: [PeerIdentity] = {
        let temp = try! TestDirectory()
        defer { temp.remove() }
        return (0..<4).map { try! PeerIdentity.loadOrCreate(directory: temp.file("device-\($0)")) }
    }()
    var founder: PeerIdentity { Self.keys[0] }
    var desktop: PeerIdentity { Self.keys[1] }
    var server: PeerIdentity { Self.keys[2] }
    var stranger: PeerIdentity { Self.keys[3] }

    /// A copy of `list` that received `entries` (beyond the founding) in the given order.
    func replay(_ list: DeviceList, _ entries: [DeviceListEntry]) throws -> DeviceList {
        var copy = try DeviceList(founding: list.entries[0])
        for entry in entries { try copy.receive(entry) }
        return copy
    }

    @Test func aFoundingGivesAPersonIDThatEveryPeerDerivesFromTheSameBytes() throws {
        let list = DeviceList.found(by: founder, name: "laptop", at: 1_000)
        let received = try DeviceListEntry(decoding: list.entries[0].encoded)
        let again = try DeviceList(founding: received)
        #expect(again.person == list.person)
        #expect(try PersonID(parsing: list.person.description) == list.person)
        #expect(again.devices.map(\.id) == [founder.peerID])
        #expect(again.devices.map(\.name) == ["laptop"])
        // Founding again (another moment) is another person.
        #expect(DeviceList.found(by: founder, name: "laptop", at: 2_000).person != list.person)
    }

    @Test func devicesAddedAndRenamedArriveInAnyOrderWithTheSameResult() throws {
        var list = DeviceList.found(by: founder, name: "laptop", at: 1_000)
        let add = try list.append(
            .add(certificate: desktop.certificateDER, name: "desktop"), by: founder, at: 1_001)
        let rename = try list.append(
            .rename(device: desktop.peerID, name: "study desktop"), by: desktop, at: 1_002)
        let addServer = try list.append(
            .add(certificate: server.certificateDER, name: "home server"), by: desktop, at: 1_003)
        #expect(list.devices.map(\.name) == ["laptop", "study desktop", "home server"])
        for order in [[addServer, rename, add], [rename, add, addServer], [add, addServer, rename]] {
            let copy = try replay(list, try order.map { try DeviceListEntry(decoding: $0.encoded) })
            #expect(copy.devices == list.devices, "order \(order.map(\.createdAt))")
            #expect(copy.waiting.isEmpty)
        }
    }

    @Test func forgedAlteredOrUnauthorisedEntriesAreRefusedAndChangeNothing() throws {
        var list = DeviceList.found(by: founder, name: "laptop", at: 1_000)
        let add = try list.append(
            .add(certificate: desktop.certificateDER, name: "desktop"), by: founder, at: 1_001)
        var copy = try replay(list, [])

        // The name changed on the way: the signature no longer matches.
        let altered = DeviceListEntry(
            action: .add(certificate: desktop.certificateDER, name: "evil"), parents: add.parents,
            signer: add.signer, createdAt: add.createdAt, signature: add.signature)
        #expect(throws: DeviceListError.badSignature(signer: founder.peerID)) { try copy.receive(altered) }
        // A stranger adds itself.
        let founding = [list.entries[0].hash]
        let selfAdded = DeviceListEntry.signed(
            .add(certificate: stranger.certificateDER, name: "me"), parents: founding, person: list.person,
            by: stranger, at: 1_002)
        #expect(throws: DeviceListError.signerNotOnTheList(signer: stranger.peerID)) {
            try copy.receive(selfAdded)
        }
        // A device's signature claimed under another device's name.
        let borrowed = DeviceListEntry(
            action: selfAdded.action, parents: selfAdded.parents, signer: founder.peerID,
            createdAt: selfAdded.createdAt, signature: selfAdded.signature)
        #expect(throws: DeviceListError.badSignature(signer: founder.peerID)) { try copy.receive(borrowed) }
        // An entry signed for another person's list.
        let other = DeviceList.found(by: founder, name: "laptop", at: 5_000)
        let replayed = DeviceListEntry.signed(
            .add(certificate: stranger.certificateDER, name: "x"), parents: founding, person: other.person,
            by: founder, at: 1_003)
        #expect(throws: DeviceListError.badSignature(signer: founder.peerID)) { try copy.receive(replayed) }
        #expect(copy.entries.count == 1)
        #expect(copy.devices.map(\.id) == [founder.peerID])
        // A bare certificate that is not one.
        #expect(throws: DeviceListError.notAnEd25519Certificate) {
            _ = try list.append(
                .add(certificate: [0x30, 0x03, 1, 2, 3], name: "junk"), by: founder, at: 1_004)
        }
        try copy.receive(add)
        #expect(copy.devices.map(\.id) == [founder.peerID, desktop.peerID])
    }

    @Test func aRemovedDeviceSignsNothingMoreAndIsNeverAddedAgain() throws {
        var list = DeviceList.found(by: founder, name: "laptop", at: 1_000)
        _ = try list.append(
            .add(certificate: desktop.certificateDER, name: "desktop"), by: founder, at: 1_001)
        _ = try list.append(.remove(device: desktop.peerID), by: founder, at: 1_002)
        #expect(list.devices.map(\.id) == [founder.peerID])
        #expect(throws: DeviceListError.signerNotOnTheList(signer: desktop.peerID)) {
            _ = try list.append(.add(certificate: server.certificateDER, name: "s"), by: desktop, at: 1_003)
        }
        #expect(throws: DeviceListError.deviceAlreadyOnTheList(desktop.peerID)) {
            _ = try list.append(
                .add(certificate: desktop.certificateDER, name: "again"), by: founder, at: 1_004)
        }
        #expect(throws: DeviceListError.deviceNotOnTheList(desktop.peerID)) {
            _ = try list.append(.rename(device: desktop.peerID, name: "x"), by: founder, at: 1_005)
        }
    }

    @Test func aStolenFounderRemovedWhileApartKeepsNoFootholdThroughADeviceItAdds() throws {
        var laptop = DeviceList.found(by: founder, name: "laptop", at: 1_000)
        _ = try laptop.append(
            .add(certificate: desktop.certificateDER, name: "desktop"), by: founder, at: 1_001)
        var desk = try replay(laptop, Array(laptop.entries.dropFirst()))
        // The laptop is stolen: the desktop removes it; the thief, not knowing, adds a device
        // and has it remove the desktop.
        let removal = try desk.append(.remove(device: founder.peerID), by: desktop, at: 2_000)
        let puppet = try laptop.append(
            .add(certificate: server.certificateDER, name: "thief"), by: founder, at: 2_001)
        let puppetRemoval = try laptop.append(.remove(device: desktop.peerID), by: server, at: 2_002)
        try desk.receive(puppet)
        try desk.receive(puppetRemoval)
        try laptop.receive(removal)
        #expect(desk.devices.map(\.id) == [desktop.peerID])
        #expect(laptop.devices.map(\.id) == [desktop.peerID])
    }

    @Test func twoDevicesRemovingEachOtherWhileApartLeaveTheMoreSeniorOneEverywhere() throws {
        var laptop = DeviceList.found(by: founder, name: "laptop", at: 1_000)
        _ = try laptop.append(
            .add(certificate: desktop.certificateDER, name: "desktop"), by: founder, at: 1_001)
        var desk = try replay(laptop, Array(laptop.entries.dropFirst()))
        let byLaptop = try laptop.append(.remove(device: desktop.peerID), by: founder, at: 2_000)
        let byDesk = try desk.append(.remove(device: founder.peerID), by: desktop, at: 2_000)
        try laptop.receive(byDesk)
        try desk.receive(byLaptop)
        #expect(laptop.devices.map(\.id) == [founder.peerID])
        #expect(desk.devices.map(\.id) == [founder.peerID])
    }

    /// Random device-list histories on three devices that are apart and together at random;
    /// every device ends with the same devices, whatever order the entries arrived in.
    @Test func randomHistoriesResolveTheSameEverywhere() throws {
        let seed = SeededRandom.chooseSeed()
        var rng = SeededRandom(seed: seed)
        for _ in 0..<200 { try randomHistory(&rng, seed: seed) }
    }

    private func randomHistory(_ rng: inout SeededRandom, seed: UInt64) throws {
        let keys = Array(Self.keys.prefix(3))
        var lists = [DeviceList.found(by: keys[0], name: "d0", at: 1)]
        lists.append(try replay(lists[0], []))
        lists.append(try replay(lists[0], []))
        var time: UInt64 = 10
        for _ in 0..<14 {
            time += 1
            let actor = Int(rng.next() % 3)
            let key = keys[actor]
            if rng.next() % 3 == 0 {
                // Meet: the actor hears everything another device holds.
                let other = Int(rng.next() % 3)
                for entry in lists[other].entries.dropFirst() { try? lists[actor].receive(entry) }
                continue
            }
            let target = keys[Int(rng.next() % 3)]
            let action: DeviceListEntry.Action =
                switch rng.next() % 3 {
                case 0: .add(certificate: target.certificateDER, name: "d\(time)")
                case 1: .rename(device: target.peerID, name: "n\(time)")
                default: .remove(device: target.peerID)
                }
            _ = try? lists[actor].append(action, by: key, at: time)
        }
        let all = Array(Set(lists.flatMap { $0.entries.dropFirst() }))
        var results: [[Device]] = []
        for _ in 0..<4 {
            var order = all
            for i in order.indices.reversed() { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
            let copy = try replay(lists[0], order)
            #expect(copy.waiting.isEmpty, "seed \(seed) (replay: PEERSHARE_TEST_SEED=\(seed))")
            results.append(copy.devices)
        }
        #expect(
            Set(results.map { $0.map(\.id) }).count == 1,
            "seed \(seed) (replay: PEERSHARE_TEST_SEED=\(seed)): \(results.map { $0.map(\.name) })")
        #expect(Set(results).count == 1, "seed \(seed) (replay: PEERSHARE_TEST_SEED=\(seed))")
    }
}
