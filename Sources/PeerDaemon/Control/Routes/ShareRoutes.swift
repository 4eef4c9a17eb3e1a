import ControlProtocol
import Replication
import Store

/// `share.create|add|invite|permission|remove|stop|leave|revoke|list|show` and `accept`:
/// the sample's sharing flow, owner and participant sides.
extension ControlRoutes {
    mutating func registerShares(_ services: DaemonServices) {
        let sharing = ShareDirectory(services: services)
        register("share.create", summary: "share a photo; prints the share URL") { args in
            try args.allowOnly(["photo", "title", "public"])
            // Before anything changes: a share whose URL cannot work is not created.
            _ = try sharing.address()
            let photo = try sharing.library.resolve(.photo, try args.string("photo"))
            guard photo.store.kind == .private else {
                throw ControlError(.invalidArguments, "share.create: only photos you own can be shared")
            }
            let title =
                try args.optionalString("title") ?? (try photo.store.photo(photo.id)?.name ?? "Shared photos")
            let permission = try sharing.permission(
                try args.optionalString("public") ?? "none", allowNone: true)
            let zone = try photo.store.createShare(
                photo: photo.id, title: title, publicPermission: permission)
            return ["share": .string(zone), "url": .string(try sharing.url(zone: zone).description)]
        }
        register("share.add", summary: "add a photo to an existing share") { args in
            try args.allowOnly(["photo", "share"])
            let photo = try sharing.library.resolve(.photo, try args.string("photo"))
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            try zone.store.addToShare(photo: photo.id, zone: zone.id)
            return ["share": .string(zone.id), "photo": .string(photo.id)]
        }
        register("share.invite", summary: "invite a peer into a share") { args in
            try args.allowOnly(["share", "peer", "permission"])
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            let peer = try PeerID(parsing: try args.string("peer"))
            let permission = try sharing.permission(try args.optionalString("permission") ?? "read-only")
            let status: ParticipantStatus =
                try zone.store.participant(zone: zone.id, peer: peer)?.status == .accepted
                ? .accepted : .pending
            try zone.store.setParticipant(zone: zone.id, peer: peer, permission: permission, status: status)
            return try sharing.participantJSON(zone, peer)
        }
        register("share.permission", summary: "change a participant's permission") { args in
            try args.allowOnly(["share", "peer", "permission"])
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            let peer = try sharing.participant(try args.string("peer"), in: zone)
            try zone.store.setParticipant(
                zone: zone.id, peer: peer, permission: try sharing.permission(try args.string("permission")))
            return try sharing.participantJSON(zone, peer)
        }
        register("share.remove", summary: "remove a participant from a share") { args in
            try args.allowOnly(["share", "peer"])
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            let peer = try sharing.participant(try args.string("peer"), in: zone)
            try zone.store.setParticipant(zone: zone.id, peer: peer, status: .removed)
            return try sharing.participantJSON(zone, peer)
        }
        register("share.stop", summary: "stop sharing: participants' copies are purged") { args in
            try args.allowOnly(["share", "purge"])
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            try zone.store.stopShare(zone.id, purge: try args.bool("purge", default: false))
            return ["share": .string(zone.id), "stopped": true]
        }
        register("share.leave", summary: "leave a share someone else owns (purges your copy)") { args in
            try args.allowOnly(["share"])
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            guard zone.store.kind == .shared else {
                throw ControlError(
                    .invalidArguments, "share.leave: you own this share; use share stop to end it")
            }
            try services.replication.engine.leave(zone: zone.id)
            return ["share": .string(zone.id), "left": true]
        }
        register("share.revoke", summary: "revoke a share's URL and make a new one") { args in
            try args.allowOnly(["share"])
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            _ = try sharing.address()
            _ = try sharing.library.revokeInvitations(zone: zone.id)
            return ["share": .string(zone.id), "url": .string(try sharing.url(zone: zone.id).description)]
        }
        register("share.list", summary: "shares you own or take part in") { args in
            try args.allowOnly([])
            return .array(try sharing.all().map { try sharing.json($0) })
        }
        register("share.show", summary: "one share: participants, permissions, status, URL for the owner") {
            args in
            try args.allowOnly(["share"])
            let reference = try args.string("share")
            let zone = try sharing.library.resolve(.share, reference)
            guard let info = try zone.store.share(zone.id), sharing.isListed(info) else {
                throw StoreError.notFound(kind: "share", reference: reference)
            }
            return try sharing.json(info)
        }
        register("accept", summary: "join a share by its URL") { args in
            try args.allowOnly(["url"])
            let url = try ShareURL(parsing: try args.string("url"))
            let joined = try services.replication.engine.accept(url)
            return [
                "share": .string(joined.zone), "title": .string(joined.title),
                "permission": .string(joined.permission.rawValue),
            ]
        }
    }
}
