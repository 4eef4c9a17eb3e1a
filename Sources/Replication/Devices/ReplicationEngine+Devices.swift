import Store
import Support

/// A person's devices, at the engine: making links, answering a new device's link request,
/// joining a person as a new device, and the device list this side shows its peers.
extension ReplicationEngine {
    /// This person's device list as peers are shown it after the hello (and as joins and
    /// membership checks carry it): re-read whenever it changes here.
    public var currentDeviceList: [[UInt8]] { deviceList.withLock { $0 } }

    /// Which devices are whose, as this engine last read the device lists it holds.
    public var knownDeviceGroups: DeviceGroups { deviceGroups.withLock { $0 } }

    /// Re-reads the local person's list from the store, for the connections made from now on.
    func reloadDeviceList() {
        guard let person = try? library.privateStore.localPerson(),
            let entries = try? library.privateStore.deviceListEntries(of: person)
        else { return }
        let changed = deviceList.withLock { held in
            defer { held = entries }
            return held != entries
        }
        adoptDeviceGroups()
        // Peers see the person's list after each hello; those connected now see it at once.
        guard changed else { return }
        for connection in state.withLock({ $0.current }) { connection.post(.sendDeviceList(entries)) }
    }

    /// Which devices are whose, from every device list this library holds, each checked
    /// again: the stores let a person's current devices act for it (this person's other
    /// devices do what this device may), and membership is read again when they changed.
    /// This device gone from its own person's list means another device removed it.
    func adoptDeviceGroups() {
        let store = library.privateStore
        var groups = DeviceGroups(
            local: try? store.localPerson(), proven: (try? store.provenPersons()) ?? [:])
        for person in (try? store.listedPersons()) ?? [] {
            guard let list = try? LocalPerson.load(person, from: store) else { continue }
            if person == groups.local, !list.isOnList(localPeer) { return removedFromPerson(list) }
            groups.current[person] = Set(list.devices.map(\.id))
            groups.ever[person] = Set(list.entries.compactMap { $0.action.addedDevice?.id })
        }
        for store in library.stores { store.setDeviceGroups(groups) }
        let changed = deviceGroups.withLock { held in
            defer { held = groups }
            return held != groups
        }
        if changed, state.withLock({ $0.running }) { applyMembership() }
    }

    /// Removes `device` from this person's devices (`peershare device remove`): signed onto
    /// the list and shown at once to every peer connected (the removed device included, so
    /// that it purges its copy); from then on no device of the person talks to it or takes
    /// its changes. Not this device itself, and not a device that is not on the list.
    public func removeDevice(_ device: PeerID) throws {
        guard device != localPeer else {
            throw DeviceLinkError.refused(
                code: "invalid",
                message: "a device cannot remove itself: remove it from another device of yours")
        }
        try signOntoOwnList(.remove(device: device), about: device)
        logger.log(.notice, "removed a device from this person", peer: device)
    }

    /// Renames one of this person's devices (`peershare device rename`).
    public func renameDevice(_ device: PeerID, to name: String) throws {
        try signOntoOwnList(.rename(device: device, name: name), about: device)
    }

    /// Names this person (`peershare name set`): every peer holding its list shows it.
    public func setPersonName(_ name: String) throws {
        try signOntoOwnList(.personName(name: name), about: nil)
    }

    /// Signs `action` (about `device`, one on the list, if any) onto this person's list with
    /// this device's key, keeps it, and shows the new list to the peers connected.
    private func signOntoOwnList(_ action: DeviceListEntry.Action, about device: PeerID?) throws {
        var list = try LocalPerson.current(in: library.privateStore)
        if let device, !list.isOnList(device) {
            throw DeviceLinkError.refused(
                code: "unknown_device", message: "\(device.short) is not one of your devices")
        }
        let entry = try list.append(action, by: identity, at: UInt64(HybridLogicalClock.wallMilliseconds()))
        try library.privateStore.saveDeviceListEntries(
            [(entry.hash, entry.encoded)], of: list.person, local: true)
        reloadDeviceList()
    }

    /// Another device of the person removed this one: its copy of the person's library (the
    /// default zone, the shares the person owns and those it takes part in) is purged, and
    /// it founds a person of its own again.
    private func removedFromPerson(_ list: DeviceList) {
        logger.log(
            .warning,
            "this device was removed from person \(list.person.short): purging its copy of the library")
        do {
            for store in library.stores {
                for zone in try store.zoneOwners() { try store.purge(zone: zone.id) }
            }
            try library.privateStore.purgeDefaultZone()
            let name =
                list.entries.compactMap { entry -> String? in
                    guard let device = entry.action.addedDevice, device.id == localPeer else { return nil }
                    return device.name
                }.last ?? "device"
            _ = try LocalPerson.foundAgain(
                library, identity: identity, deviceName: name,
                now: UInt64(HybridLogicalClock.wallMilliseconds()))
        } catch {
            logger.log(.error, "cannot purge after this device's removal: \(error)")
            return
        }
        reloadDeviceList()
        if state.withLock({ $0.running }) { applyMembership() }
    }

    /// Makes a one-time link for a new device (`peershare device link`).
    public func makeDeviceLink(address: PeerAddress, name: String?, validity: Duration) throws -> (
        url: DeviceLinkURL, expiresAt: UInt64
    ) {
        try DeviceLinking.makeLink(
            library: library, address: address, name: name, validity: validity,
            now: UInt64(HybridLogicalClock.wallMilliseconds()))
    }

    /// Answers a link request on a link connection.
    func linkRequested(_ frame: Frame, on connection: PeerConnection) -> LinkResponse {
        let response = DeviceLinking.answer(
            frame, from: connection.peer, library: library, identity: identity,
            now: UInt64(HybridLogicalClock.wallMilliseconds()))
        switch response {
        case .linked:
            reloadDeviceList()
            logger.log(.notice, "linked a new device to this person", peer: connection.peer)
        case .refused(let code, let message):
            logger.log(.notice, "refused to link a device (\(code)): \(message)", peer: connection.peer)
        }
        return response
    }

    /// Makes this fresh daemon a device of the person of the device `url` names
    /// (`peershare device join`).
    public func joinDevice(
        _ url: DeviceLinkURL, name: String, merge: Bool = false, timeout: Duration = .seconds(10)
    ) throws(DeviceLinkError) -> DeviceList {
        let list = try DeviceLinking.join(
            url, name: name, merge: merge, identity: identity, library: library, timeout: timeout)
        reloadDeviceList()
        // The linking device is where the link said: dialed at once.
        tryAddresses([url.address], of: url.device)
        logger.log(.notice, "joined person \(list.person.short) as one of its devices", peer: url.device)
        return list
    }
}
