import Support

/// The rules a display name (a person's or a device's) follows when this device signs one
/// onto its person's list.
///
/// Why: names are shown on other people's screens, in tables and in one-line messages, so
/// one written here is kept short and printable. Names received from peers are checked only
/// for size (the entry's format): what counts as printable differs between Unicode versions,
/// and peers must all accept the same entries.
public enum DisplayName {
    /// The longest name, in UTF-8 bytes.
    public static let maximumBytes = DeviceListEntry.maximumNameBytes

    /// Nil when `name` may be written, else why not, in words a user can act on.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "is empty: give a name of 1 to \(maximumBytes) bytes" }
        if name.utf8.count > maximumBytes {
            return "is \(name.utf8.count) bytes long: at most \(maximumBytes) bytes"
        }
        if !PrintableText.isPrintable(name) {
            return "holds a control or invisible character: use printable characters only"
        }
        if name.first == " " || name.last == " " { return "starts or ends with a space: leave them out" }
        return nil
    }
}
