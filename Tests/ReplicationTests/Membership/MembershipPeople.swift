import Store
import Support
import TestSupport

@testable import Replication

/// The persons of the membership tests, made once (key generation is the slow part): an
/// owner with two devices, two participants and a stranger, one device each.
struct MembershipPeople: Sendable {
    static let shared = MembershipPeople()

    let keys: [PeerIdentity]
    let ownerList: DeviceList
    let aliceList: DeviceList
    let bobList: DeviceList
    let strangerList: DeviceList
    /// Every device list above.
    let directory: DeviceListDirectory

    var laptop: PeerIdentity { keys[0] }
    var desktop: PeerIdentity { keys[1] }
    var aliceDevice: PeerIdentity { keys[2] }
    var bobDevice: PeerIdentity { keys[3] }
    var strangerDevice: PeerIdentity { keys[4] }
    var owner: PersonID { ownerList.person }
    var alice: PersonID { aliceList.person }
    var bob: PersonID { bobList.person }
    var stranger: PersonID { strangerList.person }

    private init() {
        let temp = try! TestDirectory()
        defer { temp.remove() }
        keys = (0..<5).map { try! PeerIdentity.loadOrCreate(directory: temp.file("device-\($0)")) }
        var owner = DeviceList.found(by: keys[0], name: "laptop", at: 1_000)
        _ = try! owner.append(
            .add(certificate: keys[1].certificateDER, name: "desktop"), by: keys[0], at: 1_001)
        ownerList = owner
        aliceList = DeviceList.found(by: keys[2], name: "alice", at: 1_000)
        bobList = DeviceList.found(by: keys[3], name: "bob", at: 1_000)
        strangerList = DeviceList.found(by: keys[4], name: "stranger", at: 1_000)
        directory = DeviceListDirectory([ownerList, aliceList, bobList, strangerList])
    }

    /// The person `device` belongs to.
    func person(of device: PeerIdentity) -> PersonID {
        switch device.peerID {
        case laptop.peerID, desktop.peerID: owner
        case aliceDevice.peerID: alice
        case bobDevice.peerID: bob
        default: stranger
        }
    }

    /// An operation of `zone` signed by `device` for its own person.
    func op(
        _ action: MembershipOperation.Action, by device: PeerIdentity, at stamp: UInt64,
        zone: String = "zone-1"
    ) -> MembershipOperation {
        MembershipOperation.signed(action, zone: zone, stamp: stamp, by: device, of: person(of: device))
    }

    /// The create of `zone` by the owner's laptop.
    func create(
        zone: String = "zone-1", title: String = "Holiday", publicPermission: Permission = .none,
        at stamp: UInt64 = 10
    ) -> MembershipOperation {
        op(
            .create(owner: owner, title: title, publicPermission: publicPermission), by: laptop, at: stamp,
            zone: zone)
    }

    /// A log of `zone` that received `operations` in order.
    func log(_ operations: [MembershipOperation], zone: String = "zone-1") throws(MembershipError)
        -> MembershipLog
    {
        var log = MembershipLog(zone: zone, owner: owner)
        for operation in operations { try log.receive(operation, directory: directory) }
        return log
    }
}
