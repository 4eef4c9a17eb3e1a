import Foundation
import Store
import TestSupport
import Testing

@testable import Replication

/// This device's person: founded once, stored, loaded unchanged, and never silently founded
/// again.
@Suite struct LocalPersonTests {
    @Test func theFirstStartFoundsAPersonAndLaterStartsLoadTheSameOne() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let identity = try PeerIdentity.loadOrCreate(directory: temp.file("identity"))
        let founded: DeviceList
        do {
            let library = try Library(directory: temp.file("state"), localPeer: identity.peerID)
            defer { library.close() }
            founded = try LocalPerson.loadOrFound(
                library, identity: identity, deviceName: "laptop", now: 1_000)
        }
        let library = try Library(directory: temp.file("state"), localPeer: identity.peerID)
        defer { library.close() }
        let loaded = try LocalPerson.loadOrFound(library, identity: identity, deviceName: "other", now: 9_000)
        #expect(loaded.person == founded.person)
        #expect(loaded.devices == founded.devices)
        #expect(loaded.devices.map(\.name) == ["laptop"])
        #expect(try library.privateStore.localPerson() == founded.person)
    }

    @Test func aLibraryOfThePreviousVersionGainsAPersonAndKeepsItsPhotos() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let identity = try PeerIdentity.loadOrCreate(directory: temp.file("identity"))
        let photo: String
        do {
            let library = try Library(directory: temp.file("state"), localPeer: identity.peerID)
            let data = try library.privateStore.blobs.store(Array("old photo".utf8))
            photo = try library.privateStore.addPhoto(name: "old.jpg", data: data)
            library.close()
        }
        // What schema 6 left: no device lists, no person, no persons on shares, no membership log.
        let database = try Database(path: temp.file("state/private.sqlite"))
        try database.execute(SchemaDowngrade.fromLatest(to: 18))
        try database.execute(SchemaDowngrade.toSchema17)
        try database.execute(
            """
            DROP TABLE device_list_entries; DELETE FROM meta WHERE key = 'local_person';
            ALTER TABLE shares DROP COLUMN owner_person; ALTER TABLE participants DROP COLUMN person;
            DROP TABLE device_persons; DROP TABLE membership_operations; DROP TABLE signed_sets;
            ALTER TABLE participants DROP COLUMN address; DROP TABLE set_authors; DROP TABLE signed_set_tops; DROP TABLE log_members; DROP TABLE address_records; DROP TABLE device_links; DROP TABLE join_requests; DROP TABLE ended_shares; DROP TABLE thumbnail_jobs; DROP INDEX photos_by_time; DROP INDEX photos_by_live_hash;
            PRAGMA user_version = 6
            """)
        database.close()

        let library = try Library(directory: temp.file("state"), localPeer: identity.peerID)
        defer { library.close() }
        let list = try LocalPerson.loadOrFound(library, identity: identity, deviceName: "laptop", now: 1_000)
        #expect(list.devices.map(\.id) == [identity.peerID])
        #expect(try library.privateStore.localPerson() == list.person)
        #expect(try library.privateStore.photo(photo)?.name == "old.jpg")
    }

    @Test func aStoredListThatNoLongerChecksIsReportedNotFoundedAgain() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let identity = try PeerIdentity.loadOrCreate(directory: temp.file("identity"))
        let person: PersonID
        do {
            let library = try Library(directory: temp.file("state"), localPeer: identity.peerID)
            defer { library.close() }
            person = try LocalPerson.loadOrFound(
                library, identity: identity, deviceName: "laptop", now: 1_000
            ).person
        }
        let database = try Database(path: temp.file("state/private.sqlite"))
        // The first byte of the founding's signature changed on disk (its last byte may
        // already be 0: an Ed25519 signature ends with a small number).
        try database.execute(
            """
            UPDATE device_list_entries SET entry = substr(entry, 1, length(entry) - 64)
                || CASE WHEN substr(entry, -64, 1) = x'00' THEN x'01' ELSE x'00' END
                || substr(entry, -63)
            """)
        database.close()

        let library = try Library(directory: temp.file("state"), localPeer: identity.peerID)
        defer { library.close() }
        let error = try #require(throws: PersonError.self) {
            try LocalPerson.loadOrFound(library, identity: identity, deviceName: "laptop", now: 2_000)
        }
        #expect(error.description.contains("the stored device list of person \(person) does not check"))
        #expect(error.description.hasSuffix("restore the state directory from a backup"))
        #expect(try library.privateStore.localPerson() == person)
    }
}
