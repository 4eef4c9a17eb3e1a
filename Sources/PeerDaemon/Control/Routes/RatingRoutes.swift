import ControlProtocol
import Replication
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
            let raters = try photo.store.raters(ofPhoto: photo.id)
            let names = DisplayNames(library.privateStore)
            return .array(
                try photo.store.ratings(ofPhoto: photo.id).map { rating in
                    guard case .object(var fields) = rating.json else { return rating.json }
                    // Who rated: the device that made the rating, and its person (SPEC §15).
                    let rater = raters[rating.id]
                    let who = rater.map { names.of($0) }
                    fields["rater_id"] = rater.map { .string($0.description) } ?? .null
                    fields["rater_person_id"] = who?.person.map { .string($0.description) } ?? .null
                    fields["rater_name"] = who?.deviceName.map(JSON.string) ?? .null
                    fields["rater_person_name"] = who?.personName.map(JSON.string) ?? .null
                    return .object(fields)
                })
        }
        register(.ratingDelete) { args in
            let rating = try library.resolve(.rating, try args.string("rating"))
            try rating.store.deleteRating(rating.id)
            return ["id": .string(rating.id)]
        }
    }
}
