/// Builds a manual page in roff with the `man` macros (`.TH`, `.SH`, `.SS`, `.TP`, `.PP`).
///
/// `peershare --man` and `peershared --man` write their pages from their own tables with
/// it, so the pages in `docs/man` are generated, never edited by hand. Text is escaped
/// here: a backslash, a leading dot or quote, a hyphen (`\-`, so options copy and paste as
/// ASCII) and anything outside ASCII (`\[uXXXX]`, so no input encoding is assumed).
public struct ManPageWriter: Sendable {
    private var lines: [String]

    /// Starts a page with its NAME and SYNOPSIS: `name` (upper case in `.TH`), its section,
    /// the source and manual named in the header and footer, the one-line `summary` after
    /// the name, and the `synopsis` usage line (marked up by `usage`). No date, so the same
    /// program always writes the same page.
    public init(name: String, section: Int, source: String, manual: String, summary: String, synopsis: String)
    {
        lines = [
            ".TH \(name.uppercased()) \(section) \"\" \"\(Self.escape(source))\" \"\(Self.escape(manual))\"",
            ".SH NAME", "\(Self.escape(name)) \\- \(Self.escape(summary))", ".SH SYNOPSIS",
            Self.usage(synopsis),
        ]
    }

    /// The page's roff source, ending with a newline.
    public var text: String { lines.joined(separator: "\n") + "\n" }

    public mutating func section(_ title: String) {
        lines.append(".SH \(title.uppercased())")
    }

    public mutating func subsection(_ title: String) {
        lines.append(".SS \"\(Self.escape(title))\"")
    }

    /// A paragraph of plain text.
    public mutating func paragraph(_ text: String) {
        lines += [".PP", Self.escape(text)]
    }

    /// A line of roff written as is: for `Self.bold`/`Self.italic` runs made by the caller.
    public mutating func raw(_ line: String) {
        lines.append(line)
    }

    /// A tagged paragraph: `term` (already marked up) on its own line, then `text` indented.
    public mutating func tagged(_ term: String, _ text: String) {
        lines += [".TP", term, Self.escape(text)]
    }

    /// `text` in bold, escaped.
    public static func bold(_ text: String) -> String { "\\fB\(escape(text))\\fR" }

    /// `text` in italics, escaped.
    public static func italic(_ text: String) -> String { "\\fI\(escape(text))\\fR" }

    /// A usage word as pages show it: options and literal words bold, placeholders
    /// (upper-case words such as `FILE`) italic, brackets and dots plain.
    public static func usage(_ text: String) -> String {
        text.split(separator: " ").map { word -> String in
            var core = Substring(word)
            var before = ""
            var after = ""
            while let first = core.first, "[".contains(first) {
                before.append(first)
                core = core.dropFirst()
            }
            while let last = core.last, "].".contains(last) {
                after.insert(last, at: after.startIndex)
                core = core.dropLast()
            }
            let isPlaceholder = !core.isEmpty && core.allSatisfy { $0.isUppercase || $0 == "_" || $0 == ":" }
            let marked = isPlaceholder ? italic(String(core)) : bold(String(core))
            return escape(before) + (core.isEmpty ? "" : marked) + escape(after)
        }.joined(separator: " ")
    }

    /// `text` safe inside a roff line.
    public static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case "\n": result += "\n"
            case _ where scalar.isASCII: result.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        // A line starting with a dot or a quote would be read as a request.
        return result.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.first == "." || line.first == "'" ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}
