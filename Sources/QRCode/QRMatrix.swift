import CQRencode
import Glibc

/// A QR code as a square of modules, made by libqrencode: what `--qr` draws in a terminal
/// and the gallery serves as SVG.
///
/// The only place that calls libqrencode; the drawings (`QRTerminalText`, `svg`) work on
/// this value alone, so they are tested against the library's own output.
public struct QRMatrix: Equatable, Sendable {
    /// Modules per side (21 for version 1, 4 more per version).
    public let width: Int
    /// The QR version, 1…40.
    public let version: Int
    /// Row by row, `true` for a dark module.
    public let dark: [Bool]

    public init(width: Int, version: Int, dark: [Bool]) {
        precondition(
            dark.count == width * width, "a QR matrix of width \(width) has \(width * width) modules")
        (self.width, self.version, self.dark) = (width, version, dark)
    }

    /// `text` as the smallest QR code that holds it, with error correction level L (a screen
    /// does not smudge; L keeps the code small enough for an 80-column terminal). The library
    /// picks the modes (digits and capitals take fewer bits), case kept.
    public init(encoding text: String) throws(QRCodeError) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1) else {
            let reason = errno == ERANGE ? "it is too long for a QR code" : String(cString: strerror(errno))
            throw QRCodeError(message: "cannot draw a QR code of \(text.utf8.count) bytes: \(reason)")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour (1 = dark); the other bits say what
        // the module is for (finder, timing, data…).
        let modules = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        self.init(width: width, version: Int(code.pointee.version), dark: modules.map { $0 & 1 == 1 })
    }

    /// Whether the module at `row`, `column` is dark; outside the code (its quiet zone), light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<width).contains(row), (0..<width).contains(column) else { return false }
        return dark[row * width + column]
    }
}

/// Why a text could not become a QR code (too long, out of memory), in words for a person.
public struct QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
