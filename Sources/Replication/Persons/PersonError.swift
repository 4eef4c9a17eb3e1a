import Store

/// Why this device's person cannot be loaded.
public enum PersonError: Error, Equatable, CustomStringConvertible {
    case missingDeviceList(PersonID)
    case corruptDeviceList(PersonID, String)
    /// The library has no person yet (the daemon founds one at its first start).
    case noLocalPerson

    public var description: String {
        switch self {
        case .missingDeviceList(let person):
            "the library names person \(person) but holds none of its device list: restore the state directory from a backup"
        case .corruptDeviceList(let person, let detail):
            "the stored device list of person \(person) does not check: \(detail); restore the state directory from a backup"
        case .noLocalPerson:
            "this library has no person yet: start peershared once to found it"
        }
    }
}
