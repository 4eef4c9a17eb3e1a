import Foundation
import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// `ShareJoiner.join` over real TLS on loopback against an owner that keeps the membership
/// log: its accepts go with the join, and a joiner whose clock is behind the owner's signs
/// them again after the owner's clock and ends accepted.
@Suite struct JoinAcceptRetryTests {
    typealias Device = JoinAcceptTests.Device

    /// Answers join requests the way the engine does (hello with the capabilities accepts
    /// need, the device list, then the request), counting the requests.
    final class Owner: @unchecked Sendable {
        let device: Device
        let listener: TCPListener
        let requests = Guarded(0)
        /// Accepts received in all requests.
        let accepts: Guarded<Int>

        init(_ device: Device, capabilities: Capabilities = JoinRequest.acceptCapabilities) throws {
            self.device = device
            listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
            let configuration = TLSConfiguration.server(identity: device.identity) { _ in true }
            let (identity, library, requests) = (device.identity, device.library, requests)
            let accepts = Guarded(0)
            self.accepts = accepts
            listener.start { socket in
                guard
                    let connection = try? TLSConnection.handshake(over: socket, configuration: configuration)
                else { return }
                let stream = FrameStream(connection: connection)
                defer { connection.close() }
                guard
                    (try? stream.exchangeHello(
                        Hello(peerID: identity.peerID, capabilities: capabilities, purpose: .sync)))
                        != nil,
                    let listFrame = try? stream.receive(),
                    let list = try? DeviceListMessage(frame: listFrame, limits: MessageLimits()),
                    let person = try? PersonProof.check(list.entries, device: connection.remotePeerID),
                    let frame = try? stream.receive(), let request = try? JoinRequest(frame: frame)
                else { return }
                requests.update { $0 += 1 }
                accepts.update { $0 += request.accepts.count }
                let answer = JoinHandler.respond(
                    to: request, from: connection.remotePeerID, person: person, library: library)
                try? stream.send(answer.frame)
            }
        }

        deinit { listener.close() }
    }

    @Test func aJoinerWhoseClockIsAnHourBehindEndsAcceptedInTheOwnersLog() async throws {
        let owner = try Owner(try Device())
        let joiner = try Device(
            clock: HybridLogicalClock { HybridLogicalClock.wallMilliseconds() - 3_600_000 })
        let (zone, token) = try JoinAcceptTests.share(
            by: owner.device, publicPermission: .none, inviting: joiner.identity.peerID)
        let joined = try await Self.join(joiner, to: owner, zone: zone, token: token)
        #expect(joined == ShareJoiner.Joined(zone: zone, title: "Holidays", permission: .readWrite))
        // The first request's accept was dated an hour too early: a second one followed.
        #expect(owner.requests.withLock { $0 } == 2)
        let log = try JoinAcceptTests.log(of: zone, in: owner.device)
        #expect(log.state?.participants[PersonID(digest: joiner.identity.peerID.bytes)!]?.status == .accepted)
    }

    /// An owner of the log's first version announces bit 3 but not bit 4, and refuses
    /// trailing bytes in a join request: it gets the request without accepts.
    @Test func anOwnerWithoutBit4GetsTheJoinRequestWithoutAccepts() async throws {
        let owner = try Owner(try Device(), capabilities: [.persons, .membership])
        let joiner = try Device()
        let (zone, token) = try JoinAcceptTests.share(
            by: owner.device, publicPermission: .none, inviting: joiner.identity.peerID)
        let joined = try await Self.join(joiner, to: owner, zone: zone, token: token)
        #expect(joined.permission == .readWrite)
        #expect(owner.requests.withLock { $0 } == 1)
        #expect(owner.accepts.withLock { $0 } == 0)
    }

    /// `joiner` accepts the URL of `zone` at `owner` (with its device list), off the
    /// cooperative pool.
    private static func join(_ joiner: Device, to owner: Owner, zone: String, token: String) async throws
        -> ShareJoiner.Joined
    {
        let url = ShareURL(
            host: "127.0.0.1", port: owner.listener.port, zone: zone, owner: owner.device.identity.peerID,
            token: token)
        let entries = joiner.list.entries.map(\.encoded)
        return try await onIOThread {
            Result { () throws(AcceptError) in
                try ShareJoiner.join(
                    url, identity: joiner.identity, library: joiner.library, deviceList: entries)
            }
        }.get()
    }
}
