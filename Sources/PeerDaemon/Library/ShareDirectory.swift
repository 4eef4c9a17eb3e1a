import ControlProtocol
import Replication
import Store

/// What the share commands need besides the stores: the URL a share is reached by, a
/// participant given by ID prefix, and the JSON shape of SPEC §9.
struct ShareDirectory: Sendable {
    let services: DaemonServices
    var library: Library { services.library }

    /// The owner's URL for a share: advertised address, zone, peer ID, current token.
    func url(zone: String) throws -> ShareURL {
        let address = services.state.advertiseAddress
        let title = try library.privateStore.share(zone)?.title
        return ShareURL(
            host: address.host, port: address.port, zone: zone, owner: library.localPeer,
            token: try library.invitationToken(zone: zone), title: title)
    }

    func permission(_ text: String, allowNone: Bool = false) throws -> Permission {
        guard let permission = Permission(rawValue: text), allowNone || permission != .none else {
            let allowed = allowNone ? "none, read-only or read-write" : "read-only or read-write"
            throw ControlError(.invalidArguments, "'\(text)' is not a permission: use \(allowed)")
        }
        return permission
    }

    /// A participant of the share named by a unique prefix of its peer ID.
    func participant(_ reference: String, in zone: Library.Resolved) throws -> PeerID {
        let participants = (try zone.store.share(zone.id)?.participants ?? []).compactMap {
            try? PeerID(parsing: $0.peer)
        }
        return try PeerReference.resolve(reference, among: participants, kind: "participant")
    }

    func participantJSON(_ zone: Library.Resolved, _ peer: PeerID) throws -> JSON {
        let record = try zone.store.participant(zone: zone.id, peer: peer)
        return [
            "share": .string(zone.id), "peer_id": .string(peer.description),
            "permission": .string(record?.permission.rawValue ?? "none"),
            "status": .string(record?.status.rawValue ?? "removed"),
        ]
    }

    /// The shares `share list` shows: every one but those this peer owned and stopped (as
    /// the sample deletes them; the store keeps the stopped record so that the share's URL
    /// is refused with a clear reason and its participants are told to purge).
    func all() throws -> [ShareInfo] {
        try library.stores.flatMap { try $0.shares() }.filter(isListed)
    }

    func isListed(_ share: ShareInfo) -> Bool {
        !(share.stopped && share.owner == library.localPeer.description)
    }

    func json(_ share: ShareInfo) throws -> JSON {
        let mine = share.owner == library.localPeer.description
        let myPermission: String
        if mine {
            myPermission = Permission.readWrite.rawValue
        } else {
            myPermission =
                share.participants.first { $0.peer == library.localPeer.description }?.permission.rawValue
                ?? "none"
        }
        var object: [String: JSON] = [
            "share": .string(share.zone), "title": .string(share.title),
            "role": .string(mine ? "owner" : "participant"), "store": .string(share.store.rawValue),
            "owner": .string(share.owner), "permission": .string(myPermission),
            "public_permission": .string(share.publicPermission.rawValue), "stopped": .bool(share.stopped),
            "participants": .array(
                share.participants.map {
                    [
                        "peer_id": .string($0.peer), "permission": .string($0.permission.rawValue),
                        "status": .string($0.status.rawValue),
                    ]
                }),
        ]
        if mine && !share.stopped { object["url"] = .string(try url(zone: share.zone).description) }
        return .object(object)
    }
}
