import ControlProtocol
import Replication
import Store

/// `share.create|add|invite|permission|remove|stop|leave|revoke|list|show` and `accept`:
/// the sample's sharing flow, owner and participant sides.
extension ControlRoutes {
    mutating func registerShares(_ services: DaemonServices) {
        let sharing = ShareDirectory(services: services)
        register(.shareCreate) { args in
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
            let url = try sharing.url(zone: zone)
            return ["id": .string(zone), "share": .string(zone), "url": .string(url.description)]
        }
        register(.shareAdd) { args in
            let photo = try sharing.library.resolve(.photo, try args.string("photo"))
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            try zone.store.addToShare(photo: photo.id, zone: zone.id)
            return ["id": .string(zone.id), "share": .string(zone.id), "photo": .string(photo.id)]
        }
        register(.shareSet) { args in
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            let title = try args.optionalString("title")
            let permission = try args.optionalString("public").map {
                try sharing.permission($0, allowNone: true)
            }
            guard title != nil || permission != nil else {
                throw ControlError(
                    .invalidArguments, "share.set: give a new title, a public permission, or both")
            }
            try zone.store.updateShare(zone.id, title: title, publicPermission: permission)
            // A new public permission goes into the share's signed membership log too.
            services.replication.engine.membershipRecordsChanged(zone: zone.id)
            guard let info = try zone.store.share(zone.id) else {
                throw StoreError.notFound(kind: "share", reference: zone.id)
            }
            return try sharing.json(info)
        }
        register(.shareInvite) { args in
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            let member = try PeerID(parsing: try args.string("peer"))
            let permission = try sharing.permission(try args.optionalString("permission") ?? "read-only")
            try sharing.requireNotSelf(member)
            let touched = try zone.store.invite(zone: zone.id, member: member, permission: permission)
            return try sharing.participantJSON(zone, touched[0])
        }
        register(.sharePermission) { args in
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            let member = try sharing.member(try args.string("peer"), in: zone)
            let permission = try sharing.permission(try args.string("permission"))
            let touched = try zone.store.updateMember(zone: zone.id, member: member, permission: permission)
            return try sharing.participantJSON(zone, touched[0])
        }
        register(.shareRemove) { args in
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            let member = try sharing.member(try args.string("peer"), in: zone)
            let touched = try zone.store.updateMember(zone: zone.id, member: member, status: .removed)
            return try sharing.participantJSON(zone, touched[0])
        }
        register(.shareStop) { args in
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            try zone.store.stopShare(zone.id, purge: try args.bool("purge", default: false))
            return ["id": .string(zone.id), "share": .string(zone.id), "stopped": true]
        }
        register(.shareLeave) { args in
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            guard zone.store.kind == .shared else {
                throw ControlError(
                    .invalidArguments, "share.leave: you own this share; use share stop to end it")
            }
            try services.replication.engine.leave(zone: zone.id)
            return ["id": .string(zone.id), "share": .string(zone.id), "left": true]
        }
        register(.shareRevoke) { args in
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            _ = try sharing.address()
            _ = try sharing.library.revokeInvitations(zone: zone.id)
            services.replication.engine.membershipRecordsChanged(zone: zone.id)
            return [
                "id": .string(zone.id), "share": .string(zone.id),
                "url": .string(try sharing.url(zone: zone.id).description),
            ]
        }
        register(.shareList) { args in
            let ended = try sharing.library.sharedStore.endedShares().map { sharing.json($0) }
            return .array(try sharing.all().map { try sharing.json($0) } + ended)
        }
        register(.shareShow) { args in
            let reference = try args.string("share")
            let zone: Library.Resolved
            do {
                zone = try sharing.library.resolve(.share, reference)
            } catch StoreError.notFound {
                return sharing.json(try sharing.endedShare(reference))
            }
            guard let info = try zone.store.share(zone.id), sharing.isListed(info) else {
                throw StoreError.notFound(kind: "share", reference: reference)
            }
            return try sharing.json(info)
        }
        register(.accept) { args in
            let url = try ShareURL(parsing: try args.string("url"))
            let joined = try services.replication.engine.accept(url)
            return [
                "id": .string(joined.zone), "share": .string(joined.zone), "title": .string(joined.title),
                "permission": .string(joined.permission.rawValue),
                "via": joined.via.map { .string($0.description) } ?? .null,
            ]
        }
    }
}
