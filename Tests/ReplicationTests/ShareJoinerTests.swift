import Foundation
import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// Accepting a share by URL over real TLS on loopback, against a minimal owner that answers
/// join requests the way the replication engine does.
@Suite struct ShareJoinerTests {
    /// A person: identity, library, and (for an owner) a listener answering joins.
    final class Person: @unchecked Sendable {
        let directory: TestDirectory
        let identity: PeerIdentity
        let library: Library
        var listener: TCPListener?

        init() throws {
            directory = try TestDirectory()
            identity = try PeerIdentity.loadOrCreate(directory: directory.file("identity"))
            library = try Library(directory: directory.file("library"), localPeer: identity.peerID)
        }

        deinit {
            listener?.close()
            directory.remove()
        }

        /// Shares a new photo; returns the share's URL.
        func share(publicPermission: Permission) throws -> ShareURL {
            let file = directory.file("photo-\(UUID().uuidString)")
            FileManager.default.createFile(atPath: file, contents: Data("pixels".utf8))
            let photo = try library.addPhoto(file: file, name: "beach.jpg")
            let zone = try library.privateStore.createShare(
                photo: photo, title: "Holidays", publicPermission: publicPermission)
            if listener == nil { try listen() }
            return ShareURL(
                host: "127.0.0.1", port: listener!.port, zone: zone, owner: identity.peerID,
                token: try library.currentInvitation(zone: zone).token, title: "Holidays")
        }

        private func listen() throws {
            let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
            let configuration = TLSConfiguration.server(identity: identity) { _ in true }
            let (identity, library) = (identity, library)
            listener.start { socket in
                guard
                    let connection = try? TLSConnection.handshake(over: socket, configuration: configuration)
                else { return }
                let stream = FrameStream(connection: connection)
                defer { connection.close() }
                guard (try? stream.exchangeHello(Hello(peerID: identity.peerID))) != nil,
                    let frame = try? stream.receive(), let request = try? JoinRequest(frame: frame)
                else { return }
                let answer = JoinHandler.respond(to: request, from: connection.remotePeerID, library: library)
                try? stream.send(answer.frame)
            }
            self.listener = listener
        }
    }

    func join(_ url: ShareURL, as person: Person) async throws -> Result<ShareJoiner.Joined, AcceptError> {
        try await onIOThread {
            Result { () throws(AcceptError) in
                try ShareJoiner.join(url, identity: person.identity, library: person.library)
            }
        }
    }

    @Test func anInvitedPeerJoinsWithItsPermission() async throws {
        let owner = try Person()
        let guest = try Person()
        let url = try owner.share(publicPermission: .none)
        try owner.library.privateStore.setParticipant(
            zone: url.zone, peer: guest.identity.peerID, permission: .readWrite, status: .pending)
        let joined = try await join(url, as: guest).get()
        #expect(joined == ShareJoiner.Joined(zone: url.zone, title: "Holidays", permission: .readWrite))
        #expect(try guest.library.sharedStore.zones().map(\.id) == [url.zone])
        let record = try owner.library.privateStore.participant(zone: url.zone, peer: guest.identity.peerID)
        #expect(record?.status == .accepted)
        // Accepting twice is refused locally, before dialing.
        #expect(try await join(url, as: guest) == .failure(.alreadyMember(zone: url.zone)))
    }

    /// The owner removed the guest, and the guest's copy learnt it (the participant record
    /// replicated) without being purged yet: invited again, the guest's accept goes on (it
    /// failed with `already_member`), starting from an empty copy.
    @Test func aCopyThatSaysThisPeerWasRemovedDoesNotBlockAcceptingAgain() async throws {
        let owner = try Person()
        let guest = try Person()
        let url = try owner.share(publicPermission: .none)
        let (store, peer) = (owner.library.privateStore, guest.identity.peerID)
        try store.setParticipant(zone: url.zone, peer: peer, permission: .readOnly, status: .pending)
        _ = try await join(url, as: guest).get()
        try store.setParticipant(zone: url.zone, peer: peer, status: .removed)
        for set in try store.changes(zone: url.zone, since: VectorClock(), batchSize: 10_000) {
            _ = try guest.library.sharedStore.apply(set, from: owner.identity.peerID)
        }
        let copy = try #require(try guest.library.sharedStore.share(url.zone))
        #expect(copy.participants.map(\.status) == [.removed])
        #expect(try guest.library.sharedStore.photos(zone: url.zone).count == 1)

        try store.setParticipant(zone: url.zone, peer: peer, status: .pending)
        #expect(try await join(url, as: guest).get().zone == url.zone)
        #expect(try guest.library.sharedStore.zones().map(\.id) == [url.zone])
        #expect(try guest.library.sharedStore.photos(zone: url.zone).isEmpty, "the old copy was purged")
        #expect(try store.participant(zone: url.zone, peer: peer)?.status == .accepted)
        // A live copy still makes a second accept an error.
        #expect(try await join(url, as: guest) == .failure(.alreadyMember(zone: url.zone)))
    }

    @Test func aPublicShareAdmitsAnyoneAndAPrivateOneExplainsWhy() async throws {
        let owner = try Person()
        let guest = try Person()
        let open = try owner.share(publicPermission: .readOnly)
        #expect(try await join(open, as: guest).get().permission == .readOnly)
        let closed = try owner.share(publicPermission: .none)
        let result = try await join(closed, as: guest)
        #expect(
            result
                == .failure(
                    .refused(
                        code: .joinRequested,
                        message:
                            "this share is private and you are not invited yet: your request to join went to the "
                            + "owner; accept the URL again once they approve it (or invite your peer ID "
                            + "(\(guest.identity.peerID)))"
                    )))
        #expect(try guest.library.sharedStore.zones().map(\.id) == [open.zone])
    }

    @Test func revokedUnknownAndOwnURLsAreRefusedWithNothingChanged() async throws {
        let owner = try Person()
        let guest = try Person()
        let url = try owner.share(publicPermission: .readWrite)
        _ = try owner.library.revokeInvitations(zone: url.zone)
        let revoked = try await join(url, as: guest)
        #expect(
            revoked
                == .failure(
                    .refused(
                        code: "permission_denied",
                        message:
                            "this share URL has been revoked or is not valid: ask the owner for a new one")))
        let unknownZone = ShareURL(
            host: url.host, port: url.port, zone: "00000000-0000-4000-8000-000000000000", owner: url.owner,
            token: url.token)
        #expect(
            try await join(unknownZone, as: guest)
                == .failure(
                    .refused(code: "unknown_share", message: "the owner has no share \(unknownZone.zone)")))
        #expect(try await join(url, as: owner) == .failure(.ownShare))
        #expect(try guest.library.sharedStore.zones().isEmpty)
        #expect(try owner.library.privateStore.share(url.zone)?.participants.isEmpty == true)
    }

    @Test func theTokenIsNeverSentToAnImpostor() async throws {
        let owner = try Person()
        let impostor = try Person()
        let guest = try Person()
        let real = try owner.share(publicPermission: .readWrite)
        let decoy = try impostor.share(publicPermission: .readWrite)
        // The URL names the real owner but points at the impostor's address.
        let redirected = ShareURL(
            host: decoy.host, port: decoy.port, zone: real.zone, owner: real.owner, token: real.token)
        #expect(
            try await join(redirected, as: guest)
                == .failure(
                    .wrongOwner(
                        address: "127.0.0.1:\(decoy.port)", presented: impostor.identity.peerID,
                        expected: owner.identity.peerID)))
        #expect(try guest.library.sharedStore.zones().isEmpty)
    }

    @Test func nobodyListeningIsAClearError() async throws {
        let guest = try Person()
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        let port = listener.port
        listener.close()
        let url = ShareURL(
            host: "127.0.0.1", port: port, zone: "00000000-0000-4000-8000-000000000000",
            owner: PeerID(digest: [UInt8](repeating: 9, count: 32))!, token: String(repeating: "a", count: 32)
        )
        let result = try await join(url, as: guest)
        guard case .failure(.unreachable(let address, _)) = result else {
            Issue.record("expected unreachable, got \(result)")
            return
        }
        #expect(address == "127.0.0.1:\(port)")
    }
}
