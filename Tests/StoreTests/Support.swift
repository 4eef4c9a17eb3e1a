import Foundation
import Support
import TestSupport

@testable import Store

/// Sends everything `from` has of `zone` that `to` lacks, as the sync session will.
@discardableResult
func sync(_ zone: String, from: LibraryStore, to: LibraryStore) throws -> [ApplyReport] {
    let since = try to.clock(of: zone)
    return try from.changes(zone: zone, since: since).map { try to.apply($0, from: from.localPeer) }
}

/// Whether `store` is at the latest schema version (`PRAGMA user_version`), as a store an
/// earlier version wrote must be once opened again.
func isAtLatestSchema(_ store: LibraryStore) throws -> Bool {
    try store.read { db in try db.first("PRAGMA user_version") { $0.int(0) } } == Migrations.all.count
}

/// A private store at `path` with its data under `blobs`, for tests that reopen the same file.
func openStore(_ path: String, blobs: String) throws -> LibraryStore {
    try LibraryStore(
        path: path, kind: .private, localPeer: randomPeer(), blobs: try BlobStore(root: blobs),
        clock: HybridLogicalClock())
}

/// An owner with one shared photo and a participant that has accepted it.
struct SharedPair {
    let owner: TestLibrary
    let participant: TestLibrary
    let zone: String
    let photo: String

    init(permission: Permission = .readWrite) throws {
        owner = try TestLibrary()
        participant = try TestLibrary()
        photo = try owner.addPhoto("beach.jpg", tags: ["summer"])
        zone = try owner.priv.createShare(photo: photo, title: "Holidays", publicPermission: .none)
        try owner.priv.setParticipant(
            zone: zone, peer: participant.peer, permission: permission, status: .accepted)
        try participant.shared.prepareParticipantZone(zone, owner: owner.peer)
        try sync(zone, from: owner.priv, to: participant.shared)
    }
}

extension SharedPair {
    /// Another peer invited with `permission`, accepted, and holding the zone as it is now.
    func addParticipant(permission: Permission) throws -> TestLibrary {
        let other = try TestLibrary()
        try owner.priv.setParticipant(zone: zone, peer: other.peer, permission: permission, status: .accepted)
        try other.shared.prepareParticipantZone(zone, owner: owner.peer)
        try sync(zone, from: owner.priv, to: other.shared)
        try sync(zone, from: owner.priv, to: participant.shared)
        return other
    }

    /// Moves a new photo of the owner into the share and sends it to the participant.
    func addSharedPhoto(_ name: String, bytes: [UInt8] = Array("more pixels".utf8)) throws -> String {
        let id = try owner.addPhoto(name, bytes: bytes)
        try owner.priv.addToShare(photo: id, zone: zone)
        try sync(zone, from: owner.priv, to: participant.shared)
        return id
    }
}

/// A stamp `aheadMilliseconds` past the wall clock, so that it beats every stamp a store
/// has written so far (and stays within what a store accepts as plausible).
func stampAhead(of peer: PeerID, by aheadMilliseconds: UInt64 = 1_000) -> Stamp {
    Stamp(hlc: (HybridLogicalClock.wallMilliseconds() + aheadMilliseconds) << 16, peer: peer)
}
