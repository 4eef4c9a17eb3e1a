import Store

/// Checks a peer's claim to be a person: the device list it sent must check entry by entry
/// (founding first) and name the connection's own device as on the list.
///
/// Why: a person ID is only a digest; a device earns it by presenting the list that founds
/// it with itself on it, signed link by link, over a connection that proves the device's key.
public enum PersonProof {
    /// The checked list, whose `person` the device belongs to.
    public static func check(_ entries: [[UInt8]], device: PeerID) throws(PersonProofError) -> DeviceList {
        let list = try list(entries)
        guard list.isOnList(device) else { throw .notOnList(device: device, person: list.person) }
        return list
    }

    /// The list `entries` make, each checked (founding first), whoever relayed them: it
    /// proves its person's devices, not that the sender is one of them.
    public static func list(_ entries: [[UInt8]]) throws(PersonProofError) -> DeviceList {
        let decoded: DeviceList?
        do {
            decoded = try DeviceList(encodedEntries: entries)
        } catch {
            throw .invalid("\(error)")
        }
        guard let list = decoded else { throw .empty }
        guard list.waiting.isEmpty else { throw .invalid("entries whose parents are missing") }
        return list
    }
}

/// Why a peer's device list was not believed.
public enum PersonProofError: Error, Equatable, CustomStringConvertible {
    case empty
    case invalid(String)
    case notOnList(device: PeerID, person: PersonID)

    public var description: String {
        switch self {
        case .empty: "the device list is empty"
        case .invalid(let detail): "the device list does not check: \(detail)"
        case .notOnList(let device, let person):
            "device \(device) is not on the device list of person \(person) it sent"
        }
    }
}
