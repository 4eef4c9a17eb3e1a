import ControlProtocol
import Store

/// `rate`, `rating.list`, `rating.delete`: ratings from 1 to 5, many per photo.
extension ControlRoutes {
    mutating func registerRatings(_ services: DaemonServices) {
        let library = services.library
        register(.rate) { args in
            let (reference, value) = (try args.string("photo"), try args.int("value"))
            let photo = try library.resolve(.photo, reference)
            let id = try photo.store.rate(photo: photo.id, value: value)
            return ["id": .string(id)]
        }
        register(.ratingList) { args in
            let photo = try library.resolve(.photo, try args.string("photo"))
            return .array(try photo.store.ratings(ofPhoto: photo.id).map(\.json))
        }
        register(.ratingDelete) { args in
            let rating = try library.resolve(.rating, try args.string("rating"))
            try rating.store.deleteRating(rating.id)
            return ["id": .string(rating.id)]
        }
    }
}
