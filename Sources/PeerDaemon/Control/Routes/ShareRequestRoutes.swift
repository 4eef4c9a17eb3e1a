import ControlProtocol
import Replication
import Store

/// `share.approve|deny` (the owner answering requests to join a private share), and
/// `share.dismiss|keep` (a participant keeping a copy, and forgetting a share that ended).
extension ControlRoutes {
    mutating func registerShareRequests(_ services: DaemonServices) {
        let sharing = ShareDirectory(services: services)
        register(.shareApprove) { args in
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            let request = try sharing.joinRequest(try args.string("peer"), in: zone)
            let permission = try sharing.permission(try args.optionalString("permission") ?? "read-only")
            try zone.store.approveJoinRequest(request, permission: permission)
            services.replication.engine.membershipRecordsChanged(zone: zone.id)
            return [
                "id": .string(zone.id), "share": .string(zone.id),
                "peer_id": .string(request.device.description),
                "person_id": request.person.map { .string($0.description) } ?? .null,
                "permission": .string(permission.rawValue), "status": "approved",
            ]
        }
        register(.shareDeny) { args in
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            let request = try sharing.joinRequest(try args.string("peer"), in: zone)
            try zone.store.denyJoinRequest(request)
            return [
                "id": .string(zone.id), "share": .string(zone.id),
                "peer_id": .string(request.device.description),
                "person_id": request.person.map { .string($0.description) } ?? .null, "status": "denied",
            ]
        }
        register(.shareDismiss) { args in
            let ended = try sharing.endedShare(try args.string("share"))
            try sharing.library.sharedStore.dismissEndedShare(ended.zone)
            return ["id": .string(ended.zone), "share": .string(ended.zone), "dismissed": true]
        }
        register(.shareKeep) { args in
            let zone = try sharing.library.resolve(.share, try args.string("share"))
            let result = try sharing.library.keep(share: zone.id)
            return [
                "id": .string(zone.id), "share": .string(zone.id),
                "kept": .array(result.kept.map(JSON.string)),
                "without_data": .array(result.withoutData.map(JSON.string)),
            ]
        }
    }
}
