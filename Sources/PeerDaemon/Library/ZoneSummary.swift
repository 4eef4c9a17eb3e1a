import ControlProtocol
import Store

/// One zone this peer holds, as `status` lists it: where it lives, whether this peer owns
/// it, and how many photos and tags it has.
struct ZoneSummary: Sendable, Equatable {
    enum Role: String, Sendable {
        case owner, participant
    }

    let id: String
    let store: StoreKind
    let role: Role
    /// The share's title; nil for the private default zone.
    let title: String?
    let photos: Int
    let tags: Int

    /// Every zone of both stores: the default zone first, then shares as they were created.
    static func all(in library: Library) throws -> [ZoneSummary] {
        var result: [ZoneSummary] = []
        for store in library.stores {
            let counts = try store.counts()
            let titles = Dictionary(try store.shares().map { ($0.zone, $0.title) }) { first, _ in first }
            for zone in try store.zones() {
                let isDefault = store.kind == .private && zone.id == LibraryStore.defaultZone
                result.append(
                    ZoneSummary(
                        id: zone.id, store: store.kind,
                        role: store.kind == .private ? .owner : .participant,
                        title: isDefault ? nil : titles[zone.id], photos: counts[zone.id]?.photos ?? 0,
                        tags: counts[zone.id]?.tags ?? 0))
            }
        }
        return result
    }

    /// `{"id", "store", "role", "title", "photos", "tags"}`.
    var json: JSON {
        [
            "id": .string(id), "store": .string(store.rawValue), "role": .string(role.rawValue),
            "title": title.map(JSON.string) ?? .null, "photos": .int(photos), "tags": .int(tags),
        ]
    }
}
