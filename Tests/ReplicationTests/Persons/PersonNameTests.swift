import Foundation
import Store
import TestSupport
import Testing

@testable import Replication

/// A person's display name: a signed device-list entry any of its devices writes, resolved
/// the same way on every peer, and absent from lists written before it existed.
@Suite struct PersonNameTests {
    static let keys: [PeerIdentity] = {
        let temp = try! TestDirectory()
        defer { temp.remove() }
        return (0..<2).map { try! PeerIdentity.loadOrCreate(directory: temp.file("device-\($0)")) }
    }()
    var laptop: PeerIdentity { Self.keys[0] }
    var desktop: PeerIdentity { Self.keys[1] }

    /// A list of two devices, one renamed: every action an earlier release writes.
    func twoDevices() throws -> DeviceList {
        var list = DeviceList.found(by: laptop, name: "laptop", at: 1_000)
        _ = try list.append(.add(certificate: desktop.certificateDER, name: "desktop"), by: laptop, at: 1_001)
        _ = try list.append(.rename(device: desktop.peerID, name: "study"), by: desktop, at: 1_002)
        return list
    }

    @Test func aListWithoutAPersonNameStillLoadsAndHasNoName() throws {
        let list = try twoDevices()
        // The bytes an earlier release wrote: format 1, actions 1 to 3.
        let encoded = list.entries.map(\.encoded)
        #expect(encoded.allSatisfy { $0[0] == 1 })
        #expect(encoded.map { $0[1] } == [1, 2, 3])
        let loaded = try #require(try DeviceList(encodedEntries: encoded))
        #expect(loaded.person == list.person)
        #expect(loaded.personName == nil)
        #expect(loaded.devices.map(\.name) == ["laptop", "study"])
    }

    @Test func aPersonNameTravelsAndTheNewestNamingWins() throws {
        var list = try twoDevices()
        _ = try list.append(.personName(name: "Alice"), by: laptop, at: 2_000)
        #expect(list.personName == "Alice")
        // A later naming follows the first: it wins even with an earlier clock.
        _ = try list.append(.personName(name: "Alice B."), by: desktop, at: 1_500)
        let loaded = try #require(try DeviceList(encodedEntries: list.entries.map(\.encoded)))
        #expect(loaded.personName == "Alice B.")
        #expect(loaded.devices.map(\.name) == ["laptop", "study"])
    }

    @Test(arguments: [(2_000, 1_999), (1_999, 2_000), (3_000, 3_000)])
    func concurrentNamingsResolveTheSameInEitherOrder(laptopTime: Int, desktopTime: Int) throws {
        let list = try twoDevices()
        let heads = list.heads
        let fromLaptop = DeviceListEntry.signed(
            .personName(name: "Al"), parents: heads, person: list.person, by: laptop, at: UInt64(laptopTime))
        let fromDesktop = DeviceListEntry.signed(
            .personName(name: "Alice"), parents: heads, person: list.person, by: desktop,
            at: UInt64(desktopTime))
        var first = list
        try first.receive(fromLaptop)
        try first.receive(fromDesktop)
        var second = list
        try second.receive(fromDesktop)
        try second.receive(fromLaptop)
        #expect(first.personName == second.personName)
        let expected: String =
            laptopTime != desktopTime
            ? (laptopTime > desktopTime ? "Al" : "Alice")
            : (fromLaptop.hash.lexicographicallyPrecedes(fromDesktop.hash) ? "Alice" : "Al")
        #expect(first.personName == expected)
        // A naming written after both settles it.
        _ = try first.append(.personName(name: "Alice C."), by: laptop, at: 1)
        #expect(first.personName == "Alice C.")
    }

    @Test func anEmptyOrOverlongPersonNameDoesNotDecode() throws {
        var list = try twoDevices()
        let named = try list.append(.personName(name: "Alice"), by: laptop, at: 2_000)
        let empty = DeviceListEntry.signed(
            .personName(name: ""), parents: named.parents, person: list.person, by: laptop, at: 2_001)
        #expect(throws: WireError.self) { try DeviceListEntry(decoding: empty.encoded) }
        let long = DeviceListEntry.signed(
            .personName(name: String(repeating: "a", count: 101)), parents: named.parents,
            person: list.person, by: laptop, at: 2_002)
        #expect(throws: WireError.self) { try DeviceListEntry(decoding: long.encoded) }
        #expect(try DeviceListEntry(decoding: named.encoded) == named)
    }

    @Test func theRulesForAWrittenNameSayWhatIsWrong() {
        #expect(DisplayName.problem(with: "Alice") == nil)
        #expect(DisplayName.problem(with: "Zoë Müller") == nil)
        #expect(DisplayName.problem(with: "")?.hasPrefix("is empty") == true)
        #expect(
            DisplayName.problem(with: String(repeating: "é", count: 51))
                == "is 102 bytes long: at most 100 bytes")
        #expect(DisplayName.problem(with: "A\u{1B}[31m")?.contains("printable") == true)
        #expect(DisplayName.problem(with: " Alice")?.contains("space") == true)
    }
}
