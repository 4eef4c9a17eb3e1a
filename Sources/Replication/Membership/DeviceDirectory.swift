import Store

/// Where a membership check finds a signer's certificate: the device lists this peer holds.
///
/// Why a protocol: the log that folds membership operations knows nothing of where device
/// lists come from (a store, a message, a test), only that a device belongs to a person
/// now.
public protocol DeviceDirectory {
    /// The certificate of `device` if it is on `person`'s device list; nil otherwise
    /// (another person's device, a removed one, or a person whose list is not held here).
    func certificate(of device: PeerID, person: PersonID) -> [UInt8]?
}
