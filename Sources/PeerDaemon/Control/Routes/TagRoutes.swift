import ControlProtocol
import Store

/// `tag.add`, `tag.toggle`, `tag.remove`, `tag.list`, `tag.delete`.
///
/// A TAG argument is a tag ID prefix or, failing that, a tag name: with a PHOTO, a name of
/// that photo's zone; alone (`tag.delete`), a name only one live tag has.
extension ControlRoutes {
    mutating func registerTags(_ services: DaemonServices) {
        let library = services.library
        register(.tagAdd) { args in
            let (reference, name) = (try args.string("photo"), try args.string("name"))
            let photo = try library.resolve(.photo, reference)
            let tag = try photo.store.tag(photo: photo.id, name: name)
            return [
                "id": .string(tag.id), "uuid": .string(tag.uuid), "name": .string(tag.name),
                "photo": .string(photo.id),
            ]
        }
        register(.tagToggle) { args in
            let (reference, tagReference) = (try args.string("photo"), try args.string("tag"))
            let photo = try library.resolve(.photo, reference)
            let tag = try library.resolveTag(tagReference, forPhoto: photo)
            let before = try Self.photo(photo.id, in: library).tags
            let tagged = try photo.store.toggle(photo: photo.id, tag: tag.id)
            let after = try Self.photo(photo.id, in: library).tags
            let name = (before + after).first { $0.id == tag.id }?.name
            return [
                "id": .string(tag.id), "photo": .string(photo.id), "tag": .string(tag.id),
                "name": name.map(JSON.string) ?? .null, "tagged": .bool(tagged),
            ]
        }
        register(.tagRemove) { args in
            let (reference, tagReference) = (try args.string("photo"), try args.string("tag"))
            let photo = try library.resolve(.photo, reference)
            let tag = try library.resolveTag(tagReference, forPhoto: photo)
            let name = try Self.photo(photo.id, in: library).tags.first { $0.id == tag.id }?.name
            try photo.store.untag(photo: photo.id, tag: tag.id)
            return [
                "id": .string(tag.id), "photo": .string(photo.id), "tag": .string(tag.id),
                "name": name.map(JSON.string) ?? .null,
            ]
        }
        register(.tagList) { args in
            if let share = try args.optionalString("share") {
                let (store, zone) = try library.zone(named: share)
                return .array(try store.tags(zone: zone).map(\.json))
            }
            return .array(try library.stores.flatMap { try $0.tags() }.map(\.json))
        }
        register(.tagDelete) { args in
            let tag = try library.tag(named: try args.string("tag"))
            let name = try tag.store.tags().first { $0.id == tag.id }?.name
            try tag.store.deleteTag(tag.id)
            return ["id": .string(tag.id), "name": name.map(JSON.string) ?? .null]
        }
    }
}
