import CQRencode
import Foundation
import QRCode
import Testing

@testable import PeerShareCLI

/// `--qr`'s drawing: the half blocks read back give libqrencode's own modules, inside a
/// light quiet zone of 4 modules. (No QR decoder is installed here: the round trip through
/// the drawing stands in for scanning it.)
struct QRTerminalTextTests {
    static let shareURL =
        "peershare://127.0.0.1:35263/3fda30aa-2bfe-49ba-b8cf-4a63aefc8a1e?owner=LYSJ7KM-VVT2JR5-E5SQ2BK-"
        + "D22U4YO-4XXZ4L3-DYRIE7O-GJITKND-OBTQVAT+invite=3243eacde856288d90acddf9f24239b6+title=Holidays"

    /// The modules libqrencode itself gives for `text` (8-bit mode, level L), `true` dark.
    static func reference(_ text: String) throws -> (version: Int, width: Int, dark: [Bool]) {
        let code = try #require(QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1))
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        return (Int(code.pointee.version), width, data.map { $0 & 1 == 1 })
    }

    /// The drawing read back: the module rows (`true` dark) of every line of half blocks,
    /// colour codes dropped; a light module is a drawn half.
    static func modules(of text: String) -> [[Bool]] {
        let plain = text.replacingOccurrences(of: QRTerminalText.colourOn, with: "")
            .replacingOccurrences(of: QRTerminalText.colourOff, with: "")
        var rows: [[Bool]] = []
        for line in plain.split(separator: "\n", omittingEmptySubsequences: false) {
            rows.append(line.map { !"█▀".contains($0) })
            rows.append(line.map { !"█▄".contains($0) })
        }
        return rows
    }

    /// Checks that `text` draws `expected` (`width` modules a side) in a quiet zone of 4.
    static func expectDrawing(_ text: String, of expected: [Bool], width: Int) {
        let rows = modules(of: text)
        let side = width + 2 * QRTerminalText.quietZone
        let zone = QRTerminalText.quietZone
        // An odd number of rows: the last line's lower half is left blank.
        #expect(rows.count == side + 1 && rows.allSatisfy { $0.count == side }, "\(rows.count) rows")
        #expect(rows.last?.allSatisfy { $0 } == true, "the lower half of the last line is not blank")
        var wrong: [String] = []
        for (row, modules) in rows.prefix(side).enumerated() {
            for (column, dark) in modules.enumerated() {
                let inside = (zone..<(zone + width)).contains(row) && (zone..<(zone + width)).contains(column)
                let wanted = inside && expected[(row - zone) * width + column - zone]
                if dark != wanted { wrong.append("\(row - zone),\(column - zone)") }
            }
        }
        #expect(wrong.isEmpty, "modules drawn wrong (row,column): \(wrong.prefix(10))")
    }

    @Test func aShareURLDrawsLibqrencodesModulesInAQuietZone() throws {
        let reference = try Self.reference(Self.shareURL)
        let matrix = try QRMatrix(encoding: Self.shareURL)
        // 189 bytes, most of them in 8-bit mode: version 8 at level L (up to 192 bytes).
        #expect(Self.shareURL.utf8.count == 189)
        #expect(matrix.version == 8 && matrix.width == 17 + 4 * 8)
        #expect(matrix.version == reference.version && matrix.width == reference.width)
        let same = matrix.dark == reference.dark
        #expect(same, "QRMatrix's modules are not libqrencode's")
        Self.expectDrawing(QRTerminalText.render(matrix), of: reference.dark, width: reference.width)
        Self.expectDrawing(
            QRTerminalText.render(matrix, colours: true), of: reference.dark, width: reference.width)
    }

    @Test func theDrawingIsTwoModuleRowsPerLineWithoutTrailingSpaces() throws {
        let matrix = try QRMatrix(encoding: "https://example.com")
        #expect(matrix.version == 2 && matrix.width == 25)
        let lines = QRTerminalText.render(matrix).split(separator: "\n")
        #expect(lines.count == (25 + 8 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == 33 })
        #expect(lines.dropLast().allSatisfy { $0.first == "█" && $0.last == "█" })
        // The last line's lower half is below the quiet zone: only its upper half is drawn.
        #expect(lines.last == Substring(String(repeating: "▀", count: 33)))
        // The quiet zone above: two full lines of light, then the finder patterns start.
        #expect(lines[0] == String(repeating: "█", count: 33) && lines[1] == lines[0])
    }

    @Test func aTextTooLongForAQRCodeIsAClearError() {
        #expect(throws: QRCodeError.self) { try QRMatrix(encoding: String(repeating: "x", count: 3000)) }
        do {
            _ = try QRMatrix(encoding: String(repeating: "x", count: 3000))
        } catch {
            #expect(error.description == "cannot draw a QR code of 3000 bytes: it is too long for a QR code")
        }
    }

    @Test func theSVGHasOneSquarePerDarkModuleInsideAQuietZone() throws {
        let matrix = try QRMatrix(encoding: "https://example.com")
        let svg = QRSVG.document(matrix)
        let side = matrix.width + 8
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\""))
        #expect(svg.components(separatedBy: "h1v1h-1z").count - 1 == matrix.dark.filter { $0 }.count)
        // The top-left finder pattern's corner module sits just inside the quiet zone.
        #expect(svg.contains("M4 4h1v1h-1z"))
    }
}
