import ControlProtocol

/// How photos read for people: a table for `photo list`, a card for `photo show`.
enum PhotoFormatting {
    static func list(_ result: JSON) -> String {
        let photos = result.arrayValue ?? []
        guard !photos.isEmpty else { return "no photos" }
        let rows = photos.map { photo in
            [
                Formatting.shortID(Formatting.text(photo["id"])), Formatting.text(photo["name"]),
                Formatting.bytes(photo["size"]?.intValue ?? 0), zone(photo),
                names(photo["tags"], key: "name"), names(photo["ratings"], key: "value"),
            ]
        }
        return Formatting.columns(["ID", "NAME", "SIZE", "ZONE", "TAGS", "RATINGS"], rows)
    }

    static func details(_ photo: JSON) -> String {
        let size = photo["size"]?.intValue ?? 0
        let thumbnail = photo["thumbnail_size"]?.intValue ?? 0
        return Formatting.table([
            ("id", Formatting.text(photo["id"])),
            ("name", Formatting.text(photo["name"])),
            ("zone", "\(zone(photo)) (\(Formatting.text(photo["store"])) store)"),
            ("size", "\(Formatting.bytes(size)) (\(size) bytes)"),
            ("sha256", Formatting.text(photo["sha256"])),
            ("data", photo["pending"] == true ? "pending (not fully arrived yet)" : "complete"),
            ("thumbnail", thumbnail > 0 ? "\(thumbnail) bytes" : "none"),
            ("created", Formatting.text(photo["created_at"])),
            ("tags", labelled(photo["tags"], key: "name")),
            ("ratings", labelled(photo["ratings"], key: "value")),
        ])
    }

    /// `default`, or a share's short ID.
    private static func zone(_ photo: JSON) -> String {
        let zone = Formatting.text(photo["zone"])
        return zone == "default" ? zone : Formatting.shortID(zone)
    }

    /// `beach, sea`, or `-`.
    private static func names(_ items: JSON?, key: String) -> String {
        let values = (items?.arrayValue ?? []).map { Formatting.text($0[key]) }
        return values.isEmpty ? "-" : values.joined(separator: ", ")
    }

    /// `beach (1a2b3c4d), sea (5e6f7a8b)`, or `none`.
    private static func labelled(_ items: JSON?, key: String) -> String {
        let values = (items?.arrayValue ?? []).map {
            "\(Formatting.text($0[key])) (\(Formatting.shortID(Formatting.text($0["id"]))))"
        }
        return values.isEmpty ? "none" : values.joined(separator: ", ")
    }
}
