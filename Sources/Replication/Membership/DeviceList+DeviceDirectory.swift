import Store

/// A person's own device list answers for that person's devices, and for nobody else's.
extension DeviceList: DeviceDirectory {
    public func certificate(of device: PeerID, person: PersonID) -> [UInt8]? {
        guard person == self.person else { return nil }
        return devices.first { $0.id == device }?.certificate
    }
}
