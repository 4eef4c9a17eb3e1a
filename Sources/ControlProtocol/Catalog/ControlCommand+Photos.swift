/// The library's commands: photos, tags and ratings.
extension ControlCommand {
    /// `photo.add`: adds a photo from a file the daemon reads.
    public static let photoAdd = ControlCommand(
        "photo.add", mode: .progress,
        [
            .required("file", .absolutePath), .optional("name"), .optional("thumbnail", .absolutePath),
            .optional("tags", .strings), .optional("share"), .optional("allow_duplicates", .boolean),
        ])
    /// `photo.list`: photos, optionally of one share, with one tag or added by one device, all
    /// or a page of them (`limit`, continuing `after` a photo).
    public static let photoList = ControlCommand(
        "photo.list",
        [
            .optional("share"), .optional("tag"), .optional("device"), .optional("limit", .integer),
            .optional("after"),
        ])
    /// `photo.show`: one photo with its tags and ratings.
    public static let photoShow = ControlCommand("photo.show", [.required("photo")])
    /// `photo.export`: copies a photo's full-size data to a file.
    public static let photoExport = ControlCommand(
        "photo.export", mode: .progress, [.required("photo"), .required("file", .absolutePath)])
    /// `photo.rename`: gives a photo a new name.
    public static let photoRename = ControlCommand("photo.rename", [.required("photo"), .required("name")])
    /// `photo.delete`: deletes a photo, its data, thumbnail and ratings.
    public static let photoDelete = ControlCommand("photo.delete", [.required("photo")])

    /// `tag.add`: tags a photo with the zone's tag of that name, or a new one.
    public static let tagAdd = ControlCommand("tag.add", [.required("photo"), .required("name")])
    /// `tag.toggle`: tags a photo if it lacks the tag, untags it otherwise.
    public static let tagToggle = ControlCommand("tag.toggle", [.required("photo"), .required("tag")])
    /// `tag.remove`: removes a tag from a photo.
    public static let tagRemove = ControlCommand("tag.remove", [.required("photo"), .required("tag")])
    /// `tag.list`: tags with how many photos carry each.
    public static let tagList = ControlCommand("tag.list", [.optional("share")])
    /// `tag.delete`: deletes a tag and removes it from its photos.
    public static let tagDelete = ControlCommand("tag.delete", [.required("tag")])

    /// `rate`: rates a photo from 1 to 5.
    public static let rate = ControlCommand("rate", [.required("photo"), .required("value", .integer)])
    /// `rating.list`: a photo's ratings.
    public static let ratingList = ControlCommand("rating.list", [.required("photo")])
    /// `rating.delete`: deletes a rating.
    public static let ratingDelete = ControlCommand("rating.delete", [.required("rating")])

    /// The library's commands; a new one is declared above and listed here.
    public static let libraryCommands: [ControlCommand] = [
        .photoAdd, .photoList, .photoShow, .photoExport, .photoRename, .photoDelete, .tagAdd, .tagToggle,
        .tagRemove, .tagList, .tagDelete, .rate, .ratingList, .ratingDelete,
    ]
}
