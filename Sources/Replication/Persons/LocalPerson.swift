import Store

/// This device's person: its device list, loaded from the private store, or founded with
/// this device on first start.
///
/// Why: a library written before persons existed has none, and each device must end with
/// exactly one person whose list it is on; founding happens once, is stored in one
/// transaction, and is never silently redone (a second founding would be another person).
public enum LocalPerson {
    /// Loads the device list of this library's person, founding one with `identity` if the
    /// library has none yet (a new library, or one written by an earlier version).
    public static func loadOrFound(
        _ library: Library, identity: PeerIdentity, deviceName: String, now: UInt64
    ) throws -> DeviceList {
        let store = library.privateStore
        guard let person = try store.localPerson() else {
            let list = DeviceList.found(by: identity, name: deviceName, at: now)
            try store.saveDeviceListEntries(
                list.entries.map { ($0.hash, $0.encoded) }, of: list.person, local: true)
            return list
        }
        return try load(person, from: store)
    }

    /// Founds a new person with this device, replacing the one it was removed from.
    public static func foundAgain(_ library: Library, identity: PeerIdentity, deviceName: String, now: UInt64)
        throws -> DeviceList
    {
        let list = DeviceList.found(by: identity, name: deviceName, at: now)
        try library.privateStore.saveDeviceListEntries(
            list.entries.map { ($0.hash, $0.encoded) }, of: list.person, local: true)
        return list
    }

    /// This library's person's list, checked again: the one way to read it.
    public static func current(in store: LibraryStore) throws -> DeviceList {
        guard let person = try store.localPerson() else { throw PersonError.noLocalPerson }
        return try load(person, from: store)
    }

    /// Rebuilds `person`'s list from its stored entries, checking each again.
    public static func load(_ person: PersonID, from store: LibraryStore) throws -> DeviceList {
        let stored = try store.deviceListEntries(of: person)
        do {
            guard let list = try DeviceList(encodedEntries: stored) else {
                throw PersonError.missingDeviceList(person)
            }
            guard list.person == person else {
                throw PersonError.corruptDeviceList(person, "founding of another person")
            }
            return list
        } catch let error as PersonError {
            throw error
        } catch {
            throw PersonError.corruptDeviceList(person, "\(error)")
        }
    }
}
