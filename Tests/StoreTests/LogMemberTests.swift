import TestSupport
import Testing

@testable import Store

/// Members the zone's signed log admits before the owner's records name them
/// (`log_members`): what they may do, and how the records win once they say otherwise.
@Suite struct LogMemberTests {
    @Test func aDeviceTheRecordsDoNotNameMayDoWhatTheLogAdmits() throws {
        let pair = try SharedPair()
        let store = pair.participant.shared
        let joiner = try TestLibrary().peer
        func permission() throws -> Permission {
            try store.read { db in try store.permission(of: joiner, in: pair.zone, db) }
        }
        #expect(try permission() == .none, "unknown to records and log")

        try store.addLogMember(.init(zone: pair.zone, device: joiner, permission: .readWrite))
        #expect(try permission() == .readWrite)
        #expect(
            try store.logMembers() == [.init(zone: pair.zone, device: joiner, permission: .readWrite)])

        // An address alone keeps the permission; the log no longer admitting it drops it.
        try store.addLogMember(.init(zone: pair.zone, device: joiner, address: "127.0.0.1:9"))
        #expect(try permission() == .readWrite)
        try store.replaceLogMembers(zone: pair.zone, admitted: [:])
        #expect(try permission() == .none)
        #expect(
            try store.logMembers() == [.init(zone: pair.zone, device: joiner, address: "127.0.0.1:9")],
            "kept for its address only")
        try store.replaceLogMembers(zone: pair.zone, admitted: [joiner: .readOnly])
        #expect(try permission() == .readOnly)
    }

    @Test func theOwnersRecordsWinOnceTheyNameTheDevice() throws {
        let pair = try SharedPair()
        let store = pair.participant.shared
        let joiner = try TestLibrary()
        try store.addLogMember(.init(zone: pair.zone, device: joiner.peer, permission: .readWrite))
        func permission() throws -> Permission {
            try store.read { db in try store.permission(of: joiner.peer, in: pair.zone, db) }
        }
        try pair.owner.priv.setParticipant(
            zone: pair.zone, peer: joiner.peer, permission: .readOnly, status: .pending)
        try sync(pair.zone, from: pair.owner.priv, to: store)
        #expect(try permission() == .readWrite, "an invitation not yet accepted does not settle it")

        try pair.owner.priv.setParticipant(
            zone: pair.zone, peer: joiner.peer, permission: .readOnly, status: .accepted)
        try sync(pair.zone, from: pair.owner.priv, to: store)
        #expect(try permission() == .readOnly, "the accepted record's permission")

        try pair.owner.priv.setParticipant(
            zone: pair.zone, peer: joiner.peer, permission: .readWrite, status: .removed)
        try sync(pair.zone, from: pair.owner.priv, to: store)
        #expect(try permission() == .none, "a removed record settles it")
    }

    @Test func aZonesLogMembersGoWithItsCopy() throws {
        let pair = try SharedPair()
        let store = pair.participant.shared
        try store.addLogMember(.init(zone: pair.zone, device: try TestLibrary().peer, permission: .readWrite))
        try store.purge(zone: pair.zone)
        #expect(try store.logMembers().isEmpty)
    }
}
