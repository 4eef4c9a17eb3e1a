import Foundation
import Store
import TestSupport
import Testing

@testable import Replication

/// What the owner answers to membership checks and leave notices (docs/PROTOCOL.md §10):
/// only a participant of the zone learns anything; to everyone else the zone does not exist.
@Suite struct MembershipAnswerTests {
    /// An owner's library with one share "Holidays", on real SQLite files.
    final class Owner: @unchecked Sendable {
        let directory: TestDirectory
        let library: Library
        let zone: String

        init() throws {
            directory = try TestDirectory()
            let identity = try PeerIdentity.loadOrCreate(directory: directory.file("identity"))
            library = try Library(directory: directory.file("library"), localPeer: identity.peerID)
            let file = directory.file("photo")
            FileManager.default.createFile(atPath: file, contents: Data("pixels".utf8))
            let photo = try library.addPhoto(file: file, name: "beach.jpg")
            zone = try library.privateStore.createShare(
                photo: photo, title: "Holidays", publicPermission: .readOnly)
        }

        deinit { directory.remove() }

        func answer(_ type: MessageType, zone: String? = nil, from peer: PeerID) throws -> JoinResponse {
            let frames = JoinHandler.answer(
                ZoneNotice(type: type, zone: zone ?? self.zone).frame, from: peer, library: library)
            #expect(frames.count == 1)
            return try JoinResponse(frame: frames[0])
        }

        func invite(_ peer: PeerID, status: ParticipantStatus) throws {
            try library.privateStore.setParticipant(
                zone: zone, peer: peer, permission: .readWrite, status: status)
        }
    }

    static let stranger = PeerID(digest: [UInt8](repeating: 0x5A, count: 32))!
    static let participant = PeerID(digest: [UInt8](repeating: 0x3C, count: 32))!
    static let unknownZone = "00000000-0000-4000-8000-000000000000"

    @Test func aStrangersMembershipCheckIsAnsweredExactlyLikeAnUnknownShare() throws {
        let owner = try Owner()
        let unknown = try owner.answer(.membershipCheck, zone: Self.unknownZone, from: Self.stranger)
        #expect(
            unknown == .refused(code: "unknown_share", message: "the owner has no share \(Self.unknownZone)"))
        #expect(
            try owner.answer(.membershipCheck, from: Self.stranger)
                == .refused(code: "unknown_share", message: "the owner has no share \(owner.zone)"))
        // Stopped, the share still does not exist for a stranger.
        try owner.library.privateStore.stopShare(owner.zone, purge: false)
        #expect(
            try owner.answer(.membershipCheck, from: Self.stranger)
                == .refused(code: "unknown_share", message: "the owner has no share \(owner.zone)"))
    }

    @Test func aParticipantLearnsItsStatusButARemovedOneNotTheTitle() throws {
        let owner = try Owner()
        try owner.invite(Self.participant, status: .accepted)
        #expect(
            try owner.answer(.membershipCheck, from: Self.participant)
                == .accepted(title: "Holidays", permission: .readWrite))
        try owner.invite(Self.participant, status: .removed)
        #expect(
            try owner.answer(.membershipCheck, from: Self.participant)
                == .refused(code: "removed", message: "the owner removed you from share \(owner.zone)"))
    }

    @Test func aParticipantOfAStoppedShareIsToldItStoppedWithoutTheTitle() throws {
        let owner = try Owner()
        try owner.invite(Self.participant, status: .accepted)
        try owner.library.privateStore.stopShare(owner.zone, purge: false)
        #expect(
            try owner.answer(.membershipCheck, from: Self.participant)
                == .refused(code: "stopped", message: "the owner stopped share \(owner.zone)"))
    }

    @Test func aStrangersLeaveNoticeChangesNothingAndIsAnsweredLikeAnUnknownShare() throws {
        let owner = try Owner()
        try owner.invite(Self.participant, status: .accepted)
        #expect(
            try owner.answer(.leaveNotice, from: Self.stranger)
                == .refused(code: "unknown_share", message: "the owner has no share \(owner.zone)"))
        #expect(try owner.library.privateStore.participant(zone: owner.zone, peer: Self.stranger) == nil)
        #expect(
            try owner.answer(.leaveNotice, from: Self.participant)
                == .refused(code: "left", message: "you left share \(owner.zone)"))
        #expect(
            try owner.library.privateStore.participant(zone: owner.zone, peer: Self.participant)?.status
                == .removed)
    }
}
