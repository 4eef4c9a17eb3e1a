import Store
import Testing

@testable import Replication

@Suite struct SharingMessagesTests {
    @Test func joinMessagesRoundTrip() throws {
        let request = JoinRequest(zone: "z", token: "00112233445566778899aabbccddeeff")
        #expect(try JoinRequest(frame: request.frame) == request)
        for response in [
            JoinResponse.accepted(title: "Holidays", permission: .readWrite),
            .refused(code: "permission_denied", message: "this share is private"),
        ] {
            #expect(try JoinResponse(frame: response.frame) == response)
        }
        let notice = ZoneNotice(type: .zoneRevoked, zone: "z", reason: "sharing stopped")
        #expect(try ZoneNotice(frame: notice.frame) == notice)
    }

    @Test func malformedSharingMessagesAreTypedErrors() {
        #expect(throws: WireError.self) {
            try JoinRequest(frame: Frame(type: .joinRequest, payload: [0, 0]))
        }
        #expect(throws: WireError.self) {
            try JoinResponse(
                frame: Frame(type: .joinResponse, payload: [1, 0, 0, 0, 0, 0, 0, 0, 4] + Array("none".utf8)))
        }
        #expect(throws: WireError.self) { try JoinResponse(frame: Frame(type: .hello, payload: [])) }
        let valid = JoinRequest(zone: "z", token: "t").frame
        for length in 0..<valid.payload.count {
            #expect(throws: WireError.self) {
                try JoinRequest(
                    frame: Frame(type: .joinRequest, payload: Array(valid.payload.prefix(length))))
            }
        }
    }
}
