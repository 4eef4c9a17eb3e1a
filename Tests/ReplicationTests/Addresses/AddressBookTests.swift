import Store
import Support
import Testing

@testable import Replication

/// The dial order of a device's addresses, and the bounds of local discovery's budgets.
@Suite struct AddressBookTests {
    let device = PeerID(digest: Array(repeating: 7, count: 32))!
    func address(_ port: UInt16, _ host: String = "192.0.2.1") -> PeerAddress {
        PeerAddress(host: host, port: port)
    }
    func record(_ version: UInt64, _ ports: [UInt16]) -> AddressRecord {
        AddressRecord(
            device: device, version: version, addresses: ports.map { address($0) }, signature: [],
            certificate: [])
    }

    @Test func onlyANewerRecordReplacesTheOneHeld() {
        var book = AddressBook()
        let taken = [book.take(record(5, [1])), book.take(record(5, [2])), book.take(record(4, [3]))]
        #expect(taken == [true, false, false], "not the same version again, nor an older one (a replay)")
        #expect(book.candidates(for: device, stored: nil) == [address(1)])
        let newer = book.take(record(6, [4]))
        #expect(newer)
        #expect(book.candidates(for: device, stored: nil) == [address(4)])
    }

    @Test func theAddressThatLastWorkedComesFirstThenTheRecordTheLANAndTheStores() {
        var book = AddressBook()
        book.take(record(1, [1, 2, 3]))
        book.discovered([address(9, "10.0.0.9")], of: device, now: .now, expiry: .seconds(90))
        book.confirm(address(2), of: device, at: 100)
        book.confirm(address(8), of: device, at: 200)
        let hinted = [book.hint([address(6)], of: device), book.hint([address(6)], of: device)]
        #expect(hinted == [true, false], "the second time, nothing new")
        #expect(
            book.candidates(for: device, stored: address(5))
                == [
                    address(2), address(1), address(3), address(9, "10.0.0.9"), address(6), address(5),
                    address(8),
                ],
            "a confirmed address still named first; one nothing names any more last")
        book.confirm(address(3), of: device, at: 300)
        #expect(book.candidates(for: device, stored: nil).prefix(2) == [address(3), address(2)])
    }

    @Test func candidatesAndLANAddressesAreBounded() {
        var book = AddressBook()
        book.take(record(1, Array(1...16)))
        #expect(book.candidates(for: device, stored: nil).count == AddressBook.maximumCandidates)
        let start = ContinuousClock.now
        book.discovered((20...29).map { address($0) }, of: device, now: start, expiry: .seconds(90))
        #expect(book.entry(device)?.discovered.count == AddressBook.maximumDiscovered)
        book.discovered([address(40)], of: device, now: start + .seconds(100), expiry: .seconds(90))
        #expect(
            book.entry(device)?.discovered.keys.sorted { $0.port < $1.port } == [address(40)],
            "old ones expired")
    }

    @Test func addressesHeardOnTheLANMakeADialAtOnceAtMostEveryGap() {
        var book = AddressBook()
        let start = ContinuousClock.now
        let allowed = [
            book.mayRedialForLAN(device, now: start, gap: .seconds(5)),
            book.mayRedialForLAN(device, now: start + .seconds(1), gap: .seconds(5)),
            book.mayRedialForLAN(device, now: start + .seconds(6), gap: .seconds(5)),
        ]
        #expect(allowed == [true, false, true])
    }

    @Test func eachSourceGetsABurstThenOnePacketASecondAndTheSourcesAreBounded() {
        var budgets = SourceBudgets(maxSources: 2)
        let start = ContinuousClock.now
        var spent: [Bool] = []
        for _ in 0..<9 { spent.append(budgets.spend("10.0.0.1", now: start)) }
        #expect(spent == Array(repeating: true, count: 8) + [false], "a burst of eight")
        let later = [
            budgets.spend("10.0.0.1", now: start + .seconds(1)), budgets.spend("10.0.0.2", now: start),
            budgets.spend("10.0.0.3", now: start), budgets.spend("10.0.0.3", now: start + .seconds(60)),
        ]
        #expect(
            later == [true, true, false, true],
            "one more a second; two sources tracked, so a third waits until one is full again")
    }
}
