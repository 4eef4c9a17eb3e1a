/// Whether text shown to people holds only printable characters.
///
/// Why: names people give (a client's `--author`, a person's or device's display name) end
/// up in terminals, tables and logs; a control or invisible character there can hide or
/// fake what is shown. One definition serves every check.
public enum PrintableText {
    /// True when every character of `text` is printable (the space included).
    public static func isPrintable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isPrintable)
    }

    /// `text` as a message shows it: quoted, control and invisible characters escaped
    /// (`\u{7}`), cut after `limit` characters with "…".
    public static func quoted(_ text: String, limit: Int) -> String {
        let shown = text.unicodeScalars.prefix(limit).map { scalar in
            isPrintable(scalar) ? String(scalar) : "\\u{\(String(scalar.value, radix: 16))}"
        }
        return "'" + shown.joined() + (text.unicodeScalars.count > limit ? "…" : "") + "'"
    }

    /// Not a control, format, separator other than the space, or unassigned character.
    public static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == " " { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
            .spaceSeparator:
            return false
        default:
            return true
        }
    }
}
