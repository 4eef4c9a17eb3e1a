import ControlProtocol
import FoundationEssentials
import Glibc
import Replication
import Store

/// `device link`, `device join`, `device list`, `device rename`: a person's devices.
extension ControlRoutes {
    mutating func registerDevices(_ services: DaemonServices) {
        let engine = services.replication.engine
        let sharing = ShareDirectory(services: services)
        register(.deviceLink) { args in
            let link = try engine.makeDeviceLink(
                address: try sharing.address(), name: try args.optionalString("name"),
                validity: services.state.settings.limits.deviceLinkValidity)
            return [
                "url": .string(link.url.description),
                "expires_at": StoreJSON.time(milliseconds: Int64(link.expiresAt)),
            ]
        }
        register(.deviceJoin) { args in
            let text = try args.string("url")
            let url: DeviceLinkURL
            do throws(DeviceLinkError) {
                url = try DeviceLinkURL(parsing: text)
            } catch {
                throw ControlError(ControlError.Code(rawValue: error.code), error.description)
            }
            let name = try args.optionalString("name") ?? Daemon.hostName()
            let merge = try args.bool("merge", default: false)
            do throws(DeviceLinkError) {
                let list = try engine.joinDevice(url, name: name, merge: merge)
                return [
                    "person_id": .string(list.person.description), "devices": Self.devicesJSON(list, engine),
                ]
            } catch {
                throw ControlError(ControlError.Code(rawValue: error.code), error.description)
            }
        }
        register(.deviceRemove) { args in try Self.remove(args, engine) }
        register(.deviceList) { _ in
            Self.devicesJSON(try Self.localList(engine), engine)
        }
        register(.deviceRename) { args in
            let list = try Self.localList(engine)
            let reference = try args.string("device")
            let device = try PeerReference.resolve(reference, among: list.devices.map(\.id), kind: "device")
            let name = try Self.displayName(try args.string("name"), of: "a device name")
            try engine.renameDevice(device, to: name)
            return [
                "id": .string(device.description), "device_id": .string(device.description),
                "name": .string(name),
            ]
        }
    }

    private static func remove(_ args: ControlArguments, _ engine: ReplicationEngine) throws -> JSON {
        let list = try localList(engine)
        let reference = try args.string("device")
        let device = try PeerReference.resolve(reference, among: list.devices.map(\.id), kind: "device")
        do {
            try engine.removeDevice(device)
        } catch let error as DeviceLinkError {
            throw ControlError(ControlError.Code(rawValue: error.code), error.description)
        }
        return ["id": .string(device.description), "device_id": .string(device.description), "removed": true]
    }

    private static func localList(_ engine: ReplicationEngine) throws -> DeviceList {
        try LocalPerson.current(in: engine.library.privateStore)
    }

    /// Each device of `list`: ID, name, whether it is this one, connected, last seen.
    private static func devicesJSON(_ list: DeviceList, _ engine: ReplicationEngine) -> JSON {
        let peers = Dictionary(engine.peers().map { ($0.peer, $0) }, uniquingKeysWith: { a, _ in a })
        return .array(
            list.devices.sorted { $0.id < $1.id }.map { device in
                let status = peers[device.id]
                let local = device.id == engine.localPeer
                return [
                    "id": .string(device.id.description), "device_id": .string(device.id.description),
                    "name": .string(device.name),
                    "this_device": .bool(local), "connected": .bool(status?.connected ?? false),
                    "last_seen": status?.lastSeen.map { StoreJSON.time(milliseconds: Int64($0)) } ?? .null,
                ]
            })
    }
}
