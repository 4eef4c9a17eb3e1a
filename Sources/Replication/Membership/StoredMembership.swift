import Store

/// A zone's membership log as this library holds it: the stored operations, each checked
/// again as it is loaded, with the owner and the device lists the library stored.
///
/// Why: operations are stored only once checked, but the check depends on device lists
/// that may change (a device removed from its person's list), so a log is always rebuilt
/// through `MembershipLog.receive` rather than trusted from disk.
struct StoredMembership {
    var log: MembershipLog
    /// Where the signers' certificates are looked up: the owner person's stored device list.
    let directory: DeviceListDirectory

    /// Loads the log of `zone` owned by `owner` from `store`, with the owner's device list
    /// as stored, or else the first of `also` that is the owner's (one a connection proved).
    /// Stored operations that no longer check are left out of the log (and reported
    /// through `refused`).
    static func load(
        zone: String, owner: PersonID, from store: LibraryStore, privateStore: LibraryStore,
        also: [DeviceList] = [], refused: (MembershipError) -> Void = { _ in }
    ) throws -> StoredMembership {
        let lists =
            (try? LocalPerson.load(owner, from: privateStore)).map { [$0] }
            ?? also.first { $0.person == owner }.map { [$0] } ?? []
        var stored = StoredMembership(
            log: MembershipLog(zone: zone, owner: owner), directory: DeviceListDirectory(lists))
        for bytes in try store.membershipOperations(zone: zone) {
            do throws(MembershipError) {
                try stored.log.receive(try MembershipOperation(decoding: bytes), directory: stored.directory)
            } catch {
                refused(error)
            }
        }
        return stored
    }

    /// Checks `operations` received for this zone one by one; returns the ones kept (new and
    /// valid) and the reason of each refused.
    mutating func receive(_ operations: [[UInt8]]) -> (
        kept: [MembershipOperation], refused: [MembershipError]
    ) {
        var kept: [MembershipOperation] = []
        var refused: [MembershipError] = []
        for bytes in operations {
            do throws(MembershipError) {
                let operation = try MembershipOperation(decoding: bytes)
                guard !log.contains(operation.hash) else { continue }
                try log.receive(operation, directory: directory)
                kept.append(operation)
            } catch {
                refused.append(error)
            }
        }
        return (kept, refused)
    }
}
