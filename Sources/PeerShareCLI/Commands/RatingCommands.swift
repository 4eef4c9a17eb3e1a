import ControlProtocol

/// `rate`, `rating list|delete`.
enum RatingCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["rate"], summary: "rate a photo from 1 to 5; prints the rating's ID",
            arguments: [
                PhotoCommands.photoArgument,
                ArgumentSpec(placeholder: "VALUE", key: "value", help: "1 to 5"),
            ],
            request: .rate, mode: .call(format: { Formatting.text($0["id"]) })),
        CommandSpec(
            path: ["rating", "list"], summary: "list a photo's ratings",
            arguments: [PhotoCommands.photoArgument],
            request: .ratingList,
            mode: .call(format: { result in
                let ratings = result.arrayValue ?? []
                guard !ratings.isEmpty else { return "no ratings" }
                return Formatting.columns(
                    ["ID", "VALUE", "RATED BY"],
                    ratings.map {
                        [
                            Formatting.shortID(Formatting.text($0["id"])), Formatting.text($0["value"]),
                            Formatting.who(person: $0["rater_person_name"], device: $0["rater_name"]),
                        ]
                    })
            })),
        CommandSpec(
            path: ["rating", "delete"], summary: "delete a rating",
            arguments: [
                ArgumentSpec(placeholder: "RATING", key: "rating", help: "rating ID or unique prefix")
            ],
            request: .ratingDelete,
            mode: .call(format: { "deleted rating \(Formatting.shortID(Formatting.text($0["id"])))" })),
    ]
}
