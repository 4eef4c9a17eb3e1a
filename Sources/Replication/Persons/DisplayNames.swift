import Store

/// Who a device is, for people to read: its name and its person's name, as the signed
/// device lists this library holds say.
///
/// Why: `peers`, `share show`, `rating list` and history show names beside IDs, and every
/// one must read them the same way. Names are display only: a person can call itself (and
/// its devices) anything, so nothing here decides who may do what, and a device's person is
/// taken only from what proves it (the device's own connection, or this person's own list),
/// never from another person's list that merely names the device.
public struct DisplayNames: Sendable {
    /// What is known of one device.
    public struct Names: Sendable, Equatable {
        public let person: PersonID?
        public let personName: String?
        public let deviceName: String?
    }

    private let local: PersonID?
    private let proven: [PeerID: PersonID]
    /// Each known person's name, and the names of its current devices.
    private let lists: [PersonID: (name: String?, devices: [PeerID: String])]

    /// Reads the lists `store` (the private store) holds, each checked again; a list that
    /// does not check, or a store that cannot be read, leaves its names unknown.
    public init(_ store: LibraryStore) {
        local = try? store.localPerson()
        proven = (try? store.provenPersons()) ?? [:]
        var lists: [PersonID: (name: String?, devices: [PeerID: String])] = [:]
        for person in (try? store.listedPersons()) ?? [] {
            guard let list = try? LocalPerson.load(person, from: store) else { continue }
            let devices = Dictionary(list.devices.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            lists[person] = (list.personName, devices)
        }
        self.lists = lists
    }

    /// The names of `device`, as one of `person`'s devices when the caller knows its person
    /// (a participant record), else as one of the person it proved, or of this person.
    public func of(_ device: PeerID, person: PersonID? = nil) -> Names {
        let owner =
            person ?? proven[device]
            ?? local.flatMap { lists[$0]?.devices[device] == nil ? nil : $0 }
        let list = owner.flatMap { lists[$0] }
        return Names(person: owner, personName: list?.name, deviceName: list?.devices[device])
    }

    /// `person`'s name, if its list is held and names it.
    public func name(of person: PersonID) -> String? { lists[person]?.name ?? nil }
}
