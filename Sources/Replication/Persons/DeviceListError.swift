import Store

/// Why an entry cannot join a person's device list. Each message says what a person (or a
/// developer reading a log) can check.
public enum DeviceListError: Error, Equatable, CustomStringConvertible {
    case notAFounding
    case foundingNotSignedByItsDevice
    case badSignature(signer: PeerID)
    case signerNotOnTheList(signer: PeerID)
    case deviceNotOnTheList(PeerID)
    case deviceAlreadyOnTheList(PeerID)
    case notAnEd25519Certificate
    case secondFounding
    case tooManyEntries(maximum: Int)

    public var description: String {
        switch self {
        case .notAFounding: "the first entry of a device list must found it"
        case .foundingNotSignedByItsDevice:
            "a founding entry must be signed by the device it founds the person with"
        case .badSignature(let signer): "the signature of device \(signer) does not match the entry"
        case .signerNotOnTheList(let signer):
            "device \(signer) was not on the person's device list when it signed the entry"
        case .deviceNotOnTheList(let device): "device \(device) is not on the person's device list"
        case .deviceAlreadyOnTheList(let device): "device \(device) is already on the person's device list"
        case .notAnEd25519Certificate: "the device certificate does not hold an Ed25519 key"
        case .secondFounding: "a device list is founded once"
        case .tooManyEntries(let maximum): "a device list holds at most \(maximum) entries"
        }
    }
}
