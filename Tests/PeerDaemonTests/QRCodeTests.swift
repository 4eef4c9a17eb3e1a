import ControlProtocol
import Foundation
import TestSupport
import Testing

/// `share create --qr` and `device link --qr` against a real daemon: the ID and URL lines,
/// then the URL drawn as a QR code that reads back to libqrencode's code of that URL.
@Suite(.onOwnThreads) struct QRCodeTests {
    @Test func shareCreateWithQRPrintsTheIDTheURLAndTheURLsQRCode() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let photo = try daemon.addPhoto(try directory.write("beach.jpg", bytes: randomBytes(2048)))

        let created = try daemon.cli("share", "create", photo, "--qr")
        #expect(created.status == 0 && created.stderr.isEmpty, "\(created)")
        let lines = created.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count > 3, "\(created)")
        #expect(lines[0].hasPrefix("share ") && lines[1].hasPrefix("url   "), "\(created)")
        let url = String(lines[1].dropFirst("url   ".count))
        // Not a terminal: plain half blocks, no colour codes, and the output ends with a newline.
        #expect(lines.last == "" && !created.stdout.contains("\u{1B}"))
        let reference = try QRTerminalTextTests.reference(url)
        QRTerminalTextTests.expectDrawing(
            lines.dropFirst(2).dropLast().joined(separator: "\n"), of: reference.dark, width: reference.width)

        // The share was made once, and the JSON answer has nothing more than without --qr.
        let shares = try #require(try daemon.json("share", "list").arrayValue)
        #expect(shares.count == 1 && shares.first?["url"] == .string(url))
        let other = try daemon.addPhoto(try directory.write("hill.jpg", bytes: randomBytes(2048)))
        let json = try daemon.json("share", "create", other, "--qr")
        #expect(json.objectValue.map { Set($0.keys) } == ["id", "share", "url"])
    }

    @Test func deviceLinkWithQRDrawsTheLinkURL() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let linked = try daemon.cli("device", "link", "--qr")
        #expect(linked.status == 0, "\(linked)")
        let lines = linked.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count > 3, "\(linked)")
        let reference = try QRTerminalTextTests.reference(lines[0])
        QRTerminalTextTests.expectDrawing(
            lines.dropFirst(2).joined(separator: "\n"), of: reference.dark, width: reference.width)
    }
}
