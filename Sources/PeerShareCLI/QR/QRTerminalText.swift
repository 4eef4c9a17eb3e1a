import Glibc
import QRCode

/// A QR code drawn with Unicode half blocks, two module rows per line of text, for
/// `share create --qr` and `device link --qr`.
///
/// The *light* modules are drawn (a full block `█`, or the upper `▀` or lower `▄` half)
/// and the dark ones left blank. A terminal draws text in its foreground colour on its
/// background, so on the usual dark terminal (light text on dark) the code comes out dark on
/// light, as scanners expect, with no colour codes at all: plain text that survives a pipe,
/// a log or a copy. On a terminal (stdout is one) the lines are also set in bright white on
/// black, so a light-background terminal shows the same dark-on-light code instead of its
/// negative. Around the code is the quiet zone of 4 light modules that the standard asks for.
enum QRTerminalText {
    /// Light modules around the code on every side.
    static let quietZone = 4
    /// Bright white text on a black background, and back to normal.
    static let (colourOn, colourOff) = ("\u{1B}[97;40m", "\u{1B}[0m")

    /// The lines of text for `matrix`, in colours when `colours` is true.
    static func render(_ matrix: QRMatrix, colours: Bool = false) -> String {
        let span = -quietZone..<(matrix.width + quietZone)
        var lines: [String] = []
        for top in stride(from: span.lowerBound, to: span.upperBound, by: 2) {
            var line = ""
            for column in span {
                let upper = !matrix.isDark(row: top, column: column)
                // The row below the last is no part of the drawing: left blank.
                let lower = top + 1 < span.upperBound && !matrix.isDark(row: top + 1, column: column)
                line.append(glyph(upper: upper, lower: lower))
            }
            lines.append(colours ? colourOn + line + colourOff : line)
        }
        return lines.joined(separator: "\n")
    }

    /// The character for two modules above each other, `true` for a light one.
    static func glyph(upper: Bool, lower: Bool) -> Character {
        switch (upper, lower) {
        case (true, true): return "█"
        case (true, false): return "▀"
        case (false, true): return "▄"
        case (false, false): return " "
        }
    }

    /// `url` as a QR code, in colours when standard output is a terminal.
    static func render(url: String) throws(CLIError) -> String {
        do {
            return render(try QRMatrix(encoding: url), colours: isatty(1) == 1)
        } catch {
            throw .local(error.message)
        }
    }
}
