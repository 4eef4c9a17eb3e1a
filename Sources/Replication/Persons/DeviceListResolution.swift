import Store

/// Which devices a person's checked device-list entries leave on the list: the same answer
/// on every peer, whatever order the entries arrived in.
///
/// Rules (docs/design/MESH.md, "Devices and persons"):
/// - A removal *voids* every entry that depends on the removed device without the remover
///   having seen it: an entry the removed device signed outside the removal's past, or one
///   signed by a device that such an entry added, and so on. So a stolen device cannot
///   keep a foothold by adding a device of its own before it hears of its removal.
/// - Removals can void each other (two devices removing each other while apart). Removals
///   no other remaining removal voids take effect first, and void what they void; when
///   every remaining removal is voided by another, the one signed by the most senior
///   device (added nearest the founding, then the smaller ID) takes effect.
/// - Devices added by entries that are not voided, and not removed by a removal that took
///   effect, are on the list. A removed device stays removed.
/// - A device's name, and the person's, is that of its newest naming among the entries not
///   voided: the namings no other naming follows, then the latest `createdAt`, then the
///   greatest hash (concurrent namings pick the same one everywhere).
struct DeviceListResolution {
    let devices: [Device]
    /// The person's display name; nil until a device names it.
    let personName: String?

    init(_ list: DeviceList) {
        var depth: [[UInt8]: Int] = [:]
        for entry in list.entries {
            depth[entry.hash] = (entry.parents.compactMap { depth[$0] }.max() ?? -1) + 1
        }
        // A device's add entries, shallowest first.
        var adds: [PeerID: [DeviceListEntry]] = [:]
        for entry in list.entries {
            if let device = entry.action.addedDevice { adds[device.id, default: []].append(entry) }
        }
        for key in adds.keys {
            adds[key]!.sort { a, b in
                depth[a.hash]! != depth[b.hash]!
                    ? depth[a.hash]! < depth[b.hash]! : a.hash.lexicographicallyPrecedes(b.hash)
            }
        }
        func seniority(_ device: PeerID) -> (Int, [UInt8]) {
            (adds[device]?.first.map { depth[$0.hash]! } ?? .max, device.bytes)
        }
        func senior(_ a: PeerID, _ b: PeerID) -> Bool {
            let (x, y) = (seniority(a), seniority(b))
            return x.0 != y.0 ? x.0 < y.0 : x.1.lexicographicallyPrecedes(y.1)
        }
        // The entries an entry's authority rests on: itself, the entry that added its
        // signer (in its past), that entry's signer's, … up to the founding.
        func authority(_ entry: DeviceListEntry) -> [DeviceListEntry] {
            var chain = [entry]
            var current = entry
            let past = list.past(of: entry.hash)
            while !current.action.isFounding {
                guard let added = adds[current.signer]?.first(where: { past.contains($0.hash) }),
                    !chain.contains(added)
                else { break }
                chain.append(added)
                current = added
            }
            return chain
        }
        func voids(_ removal: DeviceListEntry, _ entry: DeviceListEntry) -> Bool {
            guard let target = removal.action.removedDevice else { return false }
            let known = list.past(of: removal.hash)
            return authority(entry).contains { $0.signer == target && !known.contains($0.hash) }
        }

        var candidates = list.entries.filter { $0.action.removedDevice != nil }
        var effective: [DeviceListEntry] = []
        while !candidates.isEmpty {
            var chosen = candidates.filter { r in !candidates.contains { $0 != r && voids($0, r) } }
            if chosen.isEmpty {
                chosen = [
                    candidates.min { a, b in
                        a.signer != b.signer
                            ? senior(a.signer, b.signer) : a.hash.lexicographicallyPrecedes(b.hash)
                    }!
                ]
            }
            effective += chosen
            candidates.removeAll { r in chosen.contains(r) || chosen.contains { voids($0, r) } }
        }
        let removed = Set(effective.compactMap(\.action.removedDevice))
        let valid = list.entries.filter { entry in !effective.contains { voids($0, entry) } }

        var result: [Device] = []
        for entry in valid {
            guard let added = entry.action.addedDevice, !removed.contains(added.id),
                !result.contains(where: { $0.id == added.id })
            else { continue }
            // Concurrent adds of one device are one device: the shallowest gives its place,
            // and the newest naming (add or rename) that no other naming follows its name.
            let namings = valid.filter {
                switch $0.action {
                case .rename(let device, _): device == added.id
                default: $0.action.addedDevice?.id == added.id
                }
            }
            let latest = Self.newest(namings, in: list)!
            let name: String =
                switch latest.action {
                case .rename(_, let newName): newName
                default: latest.action.addedDevice!.name
                }
            let shallowest = namings.compactMap { $0.action.addedDevice == nil ? nil : depth[$0.hash]! }
                .min()!
            result.append(Device(id: added.id, name: name, certificate: added.certificate, depth: shallowest))
        }
        devices = result.sorted { senior($0.id, $1.id) }
        let personNamings = valid.filter { if case .personName = $0.action { true } else { false } }
        personName = Self.newest(personNamings, in: list).flatMap { entry in
            if case .personName(let name) = entry.action { name } else { nil }
        }
    }

    /// The naming no other of `namings` follows; among several (written concurrently), the
    /// latest by its signer's clock, then by hash. Nil for none.
    private static func newest(_ namings: [DeviceListEntry], in list: DeviceList) -> DeviceListEntry? {
        namings.filter { n in
            !namings.contains { $0 != n && list.isInPast(n.hash, of: $0.hash) }
        }
        .max { a, b in
            a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.hash.lexicographicallyPrecedes(b.hash)
        }
    }
}
