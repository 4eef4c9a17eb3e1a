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

    @Test func theAcceptsAndTheLeaveAreOptionalTrailingFields() throws {
        let plain = JoinRequest(zone: "z", token: "t")
        let signed = JoinRequest(zone: "z", token: "t", accepts: [[1, 2, 3], [4, 5]])
        #expect(try JoinRequest(frame: signed.frame) == signed)
        // Without accepts, the bytes are the previous release's: an older owner reads them.
        #expect(plain.frame.payload.count < signed.frame.payload.count)
        #expect(Array(signed.frame.payload.prefix(plain.frame.payload.count)) == plain.frame.payload)
        #expect(try JoinRequest(frame: plain.frame).accepts.isEmpty)
        // No accept count, or more than two, or bytes after them: refused.
        for payload in [
            plain.frame.payload + [0], plain.frame.payload + [3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            signed.frame.payload + [0],
        ] {
            #expect(throws: WireError.self) {
                try JoinRequest(frame: Frame(type: .joinRequest, payload: payload))
            }
        }
        let leave = ZoneNotice(type: .leaveNotice, zone: "z", operation: [9, 9])
        #expect(try ZoneNotice(frame: leave.frame) == leave)
        #expect(try ZoneNotice(frame: ZoneNotice(type: .leaveNotice, zone: "z").frame).operation == nil)
        // Only a leave notice carries an operation.
        let check = ZoneNotice(type: .membershipCheck, zone: "z", operation: [9, 9])
        #expect(throws: WireError.self) { try ZoneNotice(frame: check.frame) }
        #expect(
            try JoinResponse(frame: JoinResponse.acceptTooEarly(clock: 1 << 40).frame)
                == .acceptTooEarly(clock: 1 << 40))
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
