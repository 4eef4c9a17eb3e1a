import TestSupport
import Testing

@testable import Store

/// `address_records`: the newest signed record per device and the address a dial last
/// reached it at; a store of the previous schema (13) gains the table and keeps its data.
@Suite struct AddressRecordStoreTests {
    @Test func onlyAHigherVersionReplacesTheRecordAndConfirmationsKeepIt() throws {
        let library = try TestLibrary()
        let store = library.priv
        let device = try TestLibrary().peer
        #expect(try store.storeAddressRecord([1], version: 5, of: device))
        #expect(try !store.storeAddressRecord([2], version: 5, of: device), "the same version")
        #expect(try !store.storeAddressRecord([3], version: 4, of: device), "an older one")
        try store.confirmAddress("192.0.2.1:7733", of: device, at: 1_000)
        #expect(
            try store.addressRecords() == [
                .init(
                    device: device, version: 5, record: [1], confirmedAddress: "192.0.2.1:7733",
                    confirmedAt: 1_000)
            ])
        #expect(try store.storeAddressRecord([6], version: 6, of: device))
        #expect(try store.addressRecords().first?.record == [6])
        #expect(try store.addressRecords().first?.confirmedAddress == "192.0.2.1:7733")
        // A confirmation with no record yet: a row of its own.
        let other = try TestLibrary().peer
        try store.confirmAddress("198.51.100.2:1", of: other, at: 2_000)
        #expect(try store.addressRecords().first { $0.device == other }?.version == 0)
    }

    @Test func aStoreOfThePreviousSchemaGainsTheTableAndKeepsItsPhotos() throws {
        let library = try TestLibrary()
        let photo = try library.addPhoto("kept.jpg")
        try library.priv.writeLocal { db in
            try db.execute(SchemaDowngrade.fromLatest(to: 18))
            try db.execute(SchemaDowngrade.toSchema17)
            try db.execute(
                "DROP TABLE address_records; DROP TABLE device_links; DROP TABLE join_requests; DROP TABLE ended_shares; DROP TABLE thumbnail_jobs; DROP INDEX photos_by_time; DROP INDEX photos_by_live_hash"
            )
        }
        try library.priv.read { db in try db.execute("PRAGMA user_version = 13") }
        let path = library.directory.file("state")
        let peer = library.peer
        library.library.close()
        let reopened = try Library(directory: path, localPeer: peer)
        #expect(try reopened.privateStore.photo(photo)?.name == "kept.jpg")
        let device = try TestLibrary().peer
        #expect(try reopened.privateStore.storeAddressRecord([9], version: 1, of: device))
        #expect(try reopened.privateStore.addressRecords().map(\.device) == [device])
    }
}
