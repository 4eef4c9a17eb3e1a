import Store

/// A zone's membership log as this library holds it: the stored operations, each checked
/// again as it is loaded, with the owner and the device lists the library stored.
///
/// Why: operations are stored only once checked, but the check depends on device lists
/// that may change (a device removed from its person's list), so a log is always rebuilt
/// through `MembershipLog.receive` rather than trusted from disk.
struct StoredMembership {
    var log: MembershipLog
    /// Where the signers' certificates are looked up: the owner person's device list and
    /// those of the persons signing accepts and leaves (see `load`).
    let directory: DeviceListDirectory

    /// Loads the log of `zone` owned by `owner` from `store`. The directory holds the owner's
    /// device list and that of each person signing an operation (stored, or among `signers`:
    /// those of operations about to be received), as stored in
    /// `privateStore`, or else the first of `also` that is that person's (one a connection
    /// proved). Stored operations that no longer check are left out of the log (and
    /// reported through `refused`).
    static func load(
        zone: String, owner: PersonID, from store: LibraryStore, privateStore: LibraryStore,
        also: [DeviceList] = [], signers: Set<PersonID> = [], refused: (MembershipError) -> Void = { _ in }
    ) throws -> StoredMembership {
        var operations: [MembershipOperation] = []
        for bytes in try store.membershipOperations(zone: zone) {
            do throws(MembershipError) {
                operations.append(try MembershipOperation(decoding: bytes))
            } catch {
                refused(error)
            }
        }
        var persons = signers.union([owner])
        for operation in operations { persons.insert(operation.signerPerson) }
        persons.formUnion(also.map(\.person))
        let lists = persons.compactMap { person in
            (try? LocalPerson.load(person, from: privateStore)) ?? also.first { $0.person == person }
        }
        var stored = StoredMembership(
            log: MembershipLog(zone: zone, owner: owner), directory: DeviceListDirectory(lists))
        for operation in operations {
            do throws(MembershipError) {
                try stored.log.receive(operation, directory: stored.directory)
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
