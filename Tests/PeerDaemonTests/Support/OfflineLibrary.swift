import Foundation
import Store
import TestSupport

/// Changes a stopped daemon's library directly with the Store API, to build what the CLI
/// cannot make yet on one machine: shares this peer owns, and zones another peer shares
/// with it (as if a sync had happened).
enum OfflineLibrary {
    /// Opens the library of a stopped daemon as that daemon would.
    static func open(_ daemon: DaemonProcess, peer: PeerID) throws -> Library {
        try Library(directory: daemon.libraryDirectory, localPeer: peer)
    }

    /// A library of a made-up peer that owns a share with one photo tagged `tag`, to which
    /// `participant` is accepted with `permission`; its changes are applied to the
    /// participant's shared store. Returns the zone and the photo.
    static func shareFromAnotherPeer(
        with participant: Library, title: String, tag: String, permission: Permission,
        in directory: TestDirectory
    ) throws -> (owner: PeerID, zone: String, photo: String) {
        let owner = PeerID(digest: randomBytes(32))!
        let library = try Library(
            directory: directory.file("owner-\(UUID().uuidString.prefix(8))"), localPeer: owner)
        let file = try directory.write("owned-\(UUID().uuidString.prefix(8)).jpg", bytes: randomBytes(64))
        let photo = try library.addPhoto(file: file, name: "owned.jpg", tags: [tag])
        let zone = try library.privateStore.createShare(photo: photo, title: title, publicPermission: .none)
        try library.privateStore.setParticipant(
            zone: zone, peer: participant.localPeer, permission: permission, status: .accepted)
        try participant.sharedStore.prepareParticipantZone(zone, owner: owner)
        let since = try participant.sharedStore.clock(of: zone)
        for set in try library.privateStore.changes(zone: zone, since: since) {
            _ = try participant.sharedStore.apply(set, from: owner)
        }
        return (owner, zone, photo)
    }
}
