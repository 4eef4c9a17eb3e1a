import Store
import Support
import Testing

@testable import Replication

/// The device link's URL and its two messages: each round-trips, and a malformed one is
/// refused naming what is wrong.
@Suite struct DeviceLinkCodingTests {
    let device = PeerID(digest: [UInt8](repeating: 7, count: 32))!
    let token = "00112233445566778899aabbccddeeff"

    @Test func aLinkRoundTripsAndHasNoCharacterAShellWouldTake() throws {
        let url = DeviceLinkURL(
            address: PeerAddress(host: "192.0.2.7", port: 7733), device: device, token: token)
        #expect(url.description == "peershare://192.0.2.7:7733/link/\(device)/\(token)")
        #expect(try DeviceLinkURL(parsing: url.description) == url)
        #expect(!url.description.contains { "&?*#;|<>()' \"".contains($0) })
        #expect(try DeviceLinkURL(parsing: "  \(url)\n") == url, "pasted with blanks around it")
    }

    @Test(arguments: [
        ("http://h:1/link/D/T", "it does not start with peershare://"),
        ("peershare://h:1/share/D/T", "a device link is peershare://HOST:PORT/link/DEVICE_ID/TOKEN"),
        ("peershare://h:1/link/D", "a device link is peershare://HOST:PORT/link/DEVICE_ID/TOKEN"),
    ])
    func aMalformedLinkIsRefusedSayingWhy(text: String, reason: String) {
        #expect(throws: DeviceLinkError.malformed(reason)) { try DeviceLinkURL(parsing: text) }
    }

    @Test func aBadTokenOrDeviceIsNamed() {
        #expect(
            throws: DeviceLinkError.malformed(
                "its token must be 32 hexadecimal characters; copy the whole link")
        ) {
            try DeviceLinkURL(parsing: "peershare://h:1/link/\(device)/abc")
        }
        #expect(throws: DeviceLinkError.self) {
            try DeviceLinkURL(parsing: "peershare://h:1/link/XYZ/\(token)")
        }
    }

    @Test func theMessagesRoundTrip() throws {
        let request = LinkRequest(token: token, name: "desktop", certificate: [1, 2, 3])
        #expect(try LinkRequest(frame: request.frame) == request)
        for response in [
            LinkResponse.linked(entries: [[1], [2, 3]]), .refused(code: "link_used", message: "used"),
        ] {
            #expect(try LinkResponse(frame: response.frame) == response)
        }
        var writer = BinaryWriter()
        writer.write(UInt8(7))
        #expect(throws: WireError.invalidValue(field: "link outcome", reason: "7 is not 0 or 1")) {
            try LinkResponse(frame: Frame(type: .linkResponse, payload: writer.bytes))
        }
    }
}
