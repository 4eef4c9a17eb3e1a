import Store
import Support

/// A person's device list: the signed entries received so far, checked, and the devices
/// they leave on the list.
///
/// Why: every peer must reach the same answer to "is this device one of this person's?"
/// from whatever entries it holds, in whatever order they arrived, with no server to ask.
/// Entries are checked one by one as their parents arrive (signature, and a signer that is
/// on the list in the entry's own past); which devices remain is then decided over the
/// whole graph (`DeviceListResolution`).
public struct DeviceList: Sendable {
    /// At most this many entries: a person adds, renames and removes devices by hand.
    public static let maximumEntries = 1024

    public let person: PersonID
    /// Checked entries, by hash, in the order they were accepted (every parent before
    /// its children).
    public private(set) var entries: [DeviceListEntry] = []
    private var index: [[UInt8]: Int] = [:]
    /// For each checked entry, the hashes of every entry in its past (itself included).
    private var pasts: [[UInt8]: Set<[UInt8]>] = [:]
    /// Entries waiting for a parent.
    public private(set) var waiting: [DeviceListEntry] = []

    /// Starts a list from its founding entry; the person ID is the founding's digest.
    public init(founding: DeviceListEntry) throws(DeviceListError) {
        guard case .found = founding.action, founding.parents.isEmpty else { throw .notAFounding }
        guard let device = founding.action.addedDevice, device.id == founding.signer else {
            throw .foundingNotSignedByItsDevice
        }
        guard Signature.isEd25519Certificate(device.certificate) else { throw .notAnEd25519Certificate }
        guard
            Signature.verify(
                founding.signature, of: DeviceListEntry.signedMessage(founding.body, person: nil),
                certificateDER: device.certificate)
        else { throw .badSignature(signer: founding.signer) }
        person = Self.personID(of: founding)
        accept(founding)
    }

    /// The person ID a founding entry gives.
    public static func personID(of founding: DeviceListEntry) -> PersonID {
        PersonID(digest: SHA256Hasher.digest(Array("peershare person v1\0".utf8) + founding.encoded))!
    }

    /// Founds a new person with `identity` as its first device.
    public static func found(by identity: PeerIdentity, name: String, at createdAt: UInt64) -> DeviceList {
        let entry = DeviceListEntry.signed(
            .found(certificate: identity.certificateDER, name: name), parents: [], person: nil, by: identity,
            at: createdAt)
        return try! DeviceList(founding: entry)  // a key we hold signs correctly
    }

    /// Entries no other entry names as a parent: what a new entry is written after.
    public var heads: [[UInt8]] {
        let named = Set(entries.flatMap(\.parents))
        return entries.map(\.hash).filter { !named.contains($0) }
    }

    public func contains(_ hash: [UInt8]) -> Bool { index[hash] != nil }

    /// Signs a new entry after every current head, and adds it.
    public mutating func append(
        _ action: DeviceListEntry.Action, by identity: PeerIdentity, at createdAt: UInt64
    ) throws(DeviceListError) -> DeviceListEntry {
        let entry = DeviceListEntry.signed(
            action, parents: heads, person: person, by: identity, at: createdAt)
        try receive(entry)
        return entry
    }

    /// Adds an entry received from anyone. One whose parents are not all here yet waits
    /// for them; one that fails a check is refused with the reason, changing nothing.
    /// Entries it unblocked are checked in turn (those failing are dropped).
    public mutating func receive(_ entry: DeviceListEntry) throws(DeviceListError) {
        guard index[entry.hash] == nil, !waiting.contains(entry) else { return }
        guard entries.count + waiting.count < Self.maximumEntries else {
            throw .tooManyEntries(maximum: Self.maximumEntries)
        }
        guard entry.parents.allSatisfy({ index[$0] != nil }) else {
            waiting.append(entry)
            return
        }
        try check(entry)
        accept(entry)
        var progressed = true
        while progressed {
            progressed = false
            for candidate in waiting where candidate.parents.allSatisfy({ index[$0] != nil }) {
                waiting.removeAll { $0 == candidate }
                if (try? check(candidate)) != nil { accept(candidate) }
                progressed = true
            }
        }
    }

    /// Whether `earlier` is in the past of `later` (or is it).
    public func isInPast(_ earlier: [UInt8], of later: [UInt8]) -> Bool {
        pasts[later]?.contains(earlier) ?? false
    }

    /// The devices on the list, most senior first (see `DeviceListResolution`).
    public var devices: [Device] { DeviceListResolution(self).devices }

    /// The person's display name: its newest naming that no other follows (nil when it has
    /// never been named; see `DeviceListResolution`).
    public var personName: String? { DeviceListResolution(self).personName }

    /// Whether `device` is on the list now.
    public func isOnList(_ device: PeerID) -> Bool { devices.contains { $0.id == device } }

    private mutating func accept(_ entry: DeviceListEntry) {
        var past: Set<[UInt8]> = [entry.hash]
        for parent in entry.parents { past.formUnion(pasts[parent] ?? []) }
        pasts[entry.hash] = past
        index[entry.hash] = entries.count
        entries.append(entry)
    }

    /// The checks one entry must pass against its own past.
    private func check(_ entry: DeviceListEntry) throws(DeviceListError) {
        if case .found = entry.action { throw .secondFounding }
        guard !entry.parents.isEmpty else { throw .secondFounding }
        var past: Set<[UInt8]> = []
        for parent in entry.parents { past.formUnion(pasts[parent] ?? []) }
        let state = Self.deviceState(in: past.compactMap { index[$0].map { entries[$0] } })
        guard let certificate = state.added[entry.signer], !state.removed.contains(entry.signer) else {
            throw .signerNotOnTheList(signer: entry.signer)
        }
        let message = DeviceListEntry.signedMessage(entry.body, person: person)
        guard Signature.verify(entry.signature, of: message, certificateDER: certificate) else {
            throw .badSignature(signer: entry.signer)
        }
        switch entry.action {
        case .found: throw .secondFounding
        case .add:
            let added = entry.action.addedDevice!
            guard Signature.isEd25519Certificate(added.certificate) else { throw .notAnEd25519Certificate }
            // A removed device stays removed (its key may be in someone else's hands): a
            // device that comes back does so with a new key.
            guard state.added[added.id] == nil, !state.removed.contains(added.id) else {
                throw .deviceAlreadyOnTheList(added.id)
            }
        case .rename(let device, _), .remove(let device):
            guard state.added[device] != nil, !state.removed.contains(device) else {
                throw .deviceNotOnTheList(device)
            }
        case .personName: break
        }
    }

    /// The devices added (with their certificates) and removed among `entries` (one past).
    private static func deviceState(in entries: [DeviceListEntry]) -> (
        added: [PeerID: [UInt8]], removed: Set<PeerID>
    ) {
        var added: [PeerID: [UInt8]] = [:]
        var removed: Set<PeerID> = []
        for entry in entries {
            if let device = entry.action.addedDevice { added[device.id] = device.certificate }
            if case .remove(let device) = entry.action { removed.insert(device) }
        }
        return (added, removed)
    }

    /// The checked entry with this hash.
    func entry(_ hash: [UInt8]) -> DeviceListEntry? { index[hash].map { entries[$0] } }

    /// The hashes of every entry in the past of `hash` (itself included).
    func past(of hash: [UInt8]) -> Set<[UInt8]> { pasts[hash] ?? [] }
}

/// A device on a person's list, as the resolution leaves it.
public struct Device: Hashable, Sendable {
    public let id: PeerID
    public let name: String
    public let certificate: [UInt8]
    /// Longest path from the founding to the entry that added it: fewer is more senior.
    public let depth: Int
}
