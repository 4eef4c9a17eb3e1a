import Store

/// Persons as the engine learns them: each peer sends its device list after the hello; the
/// engine checks it and remembers the peer's person on the connection. The person of a peer
/// this library replicates with is stored at once (the owner writes it into the member's
/// participant records); a guest's only once it is admitted (`JoinHandler`), so strangers
/// and failed joins leave nothing behind.
extension ReplicationEngine {
    func learnPerson(_ entries: [[UInt8]], from connection: PeerConnection) {
        let peer = connection.peer
        let list: DeviceList
        do {
            list = try PersonProof.check(entries, device: peer)
        } catch {
            logger.log(.warning, "ignored the device list of \(peer): \(error)", peer: peer)
            return
        }
        connection.status.withLock { $0.person = list }
        // Only a peer this library replicates with: an invitee that has not joined yet, or a
        // stranger, leaves nothing behind (its join records it once admitted).
        guard state.withLock({ $0.membership.zonesByPeer[peer] != nil }) else { return }
        remember(list, of: peer)
        // Another device of this person may know of a device linked (or renamed) since.
        if list.person == (try? library.privateStore.localPerson()),
            !Set(list.entries.map(\.encoded)).isSubset(of: Set(currentDeviceList))
        {
            reloadDeviceList()
        }
        // A person's devices act for it: whose they are may have changed (a device linked
        // or removed, or a device proving its person for the first time).
        let known = deviceGroups.withLock { groups in
            groups.proven[peer] == list.person && groups.current[list.person] == Set(list.devices.map(\.id))
        }
        if !known { adoptDeviceGroups() }
    }

    /// Stores `list` and that `device` belongs to its person.
    func remember(_ list: DeviceList, of device: PeerID) {
        do {
            try library.privateStore.remember(list, of: device)
        } catch {
            logger.log(.warning, "could not record the person of \(device): \(error)", peer: device)
        }
    }
}
