import Store

extension LibraryStore {
    /// Keeps a checked device list and that `device` belongs to its person (writing the
    /// person into the device's participant records where this library owns the share):
    /// the one way a peer's proven person is recorded, on a member's connection or at a join.
    func remember(_ list: DeviceList, of device: PeerID) throws {
        try saveDeviceListEntries(list.entries.map { ($0.hash, $0.encoded) }, of: list.person)
        try notePerson(list.person, of: device)
    }
}
