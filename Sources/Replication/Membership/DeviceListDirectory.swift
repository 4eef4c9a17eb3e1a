import Store

/// A directory over the device lists of several persons, each resolved once.
///
/// Why: resolving a device list walks its whole graph; a directory asked once per
/// operation must not redo that, so the devices are taken when the directory is made.
public struct DeviceListDirectory: DeviceDirectory, Sendable {
    private let certificates: [PersonID: [PeerID: [UInt8]]]

    public init(_ lists: [DeviceList]) {
        var certificates: [PersonID: [PeerID: [UInt8]]] = [:]
        for list in lists {
            for device in list.devices {
                certificates[list.person, default: [:]][device.id] = device.certificate
            }
        }
        self.certificates = certificates
    }

    public func certificate(of device: PeerID, person: PersonID) -> [UInt8]? {
        certificates[person]?[device]
    }
}
