import Glibc
import Store
import Support
import Synchronization
import TestSupport
import Testing

@testable import Replication

/// Incoming connections that anyone can open are bounded: handshakes in number and time,
/// guests (joining, leaving, checking) in number and time, and strangers leave no record.
@Suite struct EngineInboundLimitTests {
    @Test func connectionsOverTheHandshakeLimitAreClosedAtOnceWhileMembersKeepSyncing() async throws {
        let owner = try EnginePeer("owner") {
            $0.maxIncomingHandshakes = 3
            $0.handshakeTimeout = .seconds(120)
        }
        let participant = try EnginePeer("participant")
        let (_, photo) = try shareZone(owner: owner, with: [participant])
        #expect(await eventually { owner.engine.status(of: participant.peer).connected })

        let address = owner.address
        // The held sockets keep their slots for `handshakeTimeout` from their accept, so the
        // flood and its checks run on one thread of its own (as in
        // `guestsOverTheLimitAreToldBusyAndTheOthersServed`): no wait for the concurrency
        // pool between them.
        let flood = try await IOThread.run {
            () -> (held: [TCPSocket], extraClosed: [Bool], heldClosed: [Bool]) in
            let held = try (0..<3).map { _ in try RecordedClientHello.stuck(to: address) }
            // In their handshake (the owner's first flight came back) before the others come.
            let admitted = held.map {
                Poll.wait(fd: $0.fileDescriptor, events: Int32(POLLIN), until: .now + .seconds(10))
            }
            precondition(admitted.allSatisfy { $0 == .ready }, "the held sockets are answered")
            let extra = try (0..<5).map { _ in try RecordedClientHello.stuck(to: address) }
            let extraClosed = extra.map { RawSocket.closedByPeer($0, within: .seconds(10)) }
            let heldClosed = held.map { RawSocket.closedByPeer($0, within: .milliseconds(200)) }
            return (held, extraClosed, heldClosed)
        }
        let held = flood.held
        #expect(flood.extraClosed == [true, true, true, true, true])
        #expect(flood.heldClosed == [false, false, false])
        #expect(owner.logged("closing incoming connections at once: 3 handshakes are under way"))
        // The member's connection does not count: it keeps replicating.
        _ = try owner.priv.tag(photo: photo, name: "during-the-flood")
        #expect(
            await eventually {
                try participant.shared.photo(photo)?.tags.map(\.name).contains("during-the-flood") == true
            })

        // Once the held sockets go, a handshake is possible again.
        for socket in held { socket.shutdown() }
        // The owner's disconnected event, not its status: the participant redials within
        // milliseconds, and a poll that waits for the concurrency pool can miss the gap.
        let before = owner.events.all.count
        participant.engine.disconnect(owner.peer)
        #expect(
            await eventually {
                owner.events.all.dropFirst(before).contains {
                    if case .disconnected(participant.peer, _) = $0 { true } else { false }
                }
            }, "cut")
        #expect(await eventually { owner.engine.status(of: participant.peer).connected }, "reconnected")
        // The next connection accepted reports how many were closed while the slots were
        // taken (the member's reconnection may be the owner dialling out, so open one here).
        let counted = try await IOThread.run { () -> Bool in
            for _ in 0..<30 {
                let socket = try RecordedClientHello.stuck(to: address)
                defer { socket.shutdown() }
                if RawSocket.closedByPeer(socket, within: .seconds(1)) { continue }  // slots still taken
                return true
            }
            return false
        }
        #expect(counted, "a handshake slot came free")
        #expect(
            await eventually {
                owner.logged("incoming connections at once while 3 handshakes were under way")
            })
    }

    /// Sockets that hold every handshake slot and never finish do not lock real peers out:
    /// once they have lasted a tenth of the handshake timeout, each new connection cuts the
    /// oldest (before, a participant that restarted during such a flood could not get back
    /// in until the flood ended).
    @Test func heldSlotsGiveWayToANewcomerOnceTheyHaveLastedATenthOfTheTimeout() async throws {
        let owner = try EnginePeer("owner") {
            $0.maxIncomingHandshakes = 3
            $0.handshakeTimeout = .seconds(20)
            $0.session.silenceTimeout = .seconds(120)
        }
        let participant = try EnginePeer("participant")
        let (_, photo) = try shareZone(owner: owner, with: [participant])
        #expect(await eventually { owner.engine.status(of: participant.peer).connected })
        let (address, target, newcomer) = (owner.address, owner, try RawPeer())
        let seen = try await IOThread.run { () -> (youngRefused: Bool, answered: MessageType?, cut: Int) in
            let held = try (0..<3).map { _ in try RecordedClientHello.stuck(to: address) }
            defer { for socket in held { socket.shutdown() } }
            for socket in held {  // in their handshake before the next one comes
                _ = Poll.wait(fd: socket.fileDescriptor, events: Int32(POLLIN), until: .now + .seconds(10))
            }
            let young = try RecordedClientHello.stuck(to: address)
            let youngRefused = RawSocket.closedByPeer(young, within: .seconds(10))
            usleep(2_200_000)  // the held sockets grow old enough to be cut (the behaviour under test)
            let stream = try Guest.open(as: newcomer.identity, to: target)
            defer { stream.connection.close() }
            let answered = try stream.receive()?.type
            let cut = held.filter { RawSocket.closedByPeer($0, within: .seconds(1)) }.count
            return (youngRefused, answered, cut)
        }
        #expect(seen.youngRefused, "while the held sockets are young, a newcomer is refused at once")
        #expect(seen.answered == .zoneClocks, "the newcomer got in while the slots were held")
        #expect(seen.cut == 1, "the oldest held socket gave its slot up, the others kept theirs")
        #expect(owner.logged("cutting the oldest handshake"))
        _ = try owner.priv.tag(photo: photo, name: "after-the-cut")
        #expect(
            await eventually {
                try participant.shared.photo(photo)?.tags.map(\.name).contains("after-the-cut") == true
            })
    }

    /// Connections that send nothing, or half a ClientHello, wait in the `HelloGate` and take
    /// no handshake slot: however many there are, a peer gets in at once; bytes that are no
    /// TLS are closed at once; and the waiting ones are closed after the handshake timeout.
    @Test func silentAndHalfSentConnectionsTakeNoHandshakeSlot() async throws {
        let owner = try EnginePeer("owner") {
            $0.maxIncomingHandshakes = 3
            $0.handshakeTimeout = .seconds(3)
            $0.session.silenceTimeout = .seconds(120)
        }
        let (address, target, newcomer) = (owner.address, owner, try RawPeer())
        let seen = try await IOThread.run {
            () -> (answered: MessageType?, garbageClosed: Bool, waitingOpen: Int, waitingClosedLater: Int) in
            let silent = try (0..<40).map { _ in try RawSocket.connect(to: address) }
            let half = try (0..<40).map { _ -> TCPSocket in
                let socket = try RawSocket.connect(to: address)
                let part = Array(RecordedClientHello.bytes.prefix(RecordedClientHello.bytes.count / 2))
                _ = part.withUnsafeBytes {
                    send(socket.fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                return socket
            }
            defer { for socket in silent + half { socket.shutdown() } }
            let garbage = try RawSocket.connect(to: address)
            _ = [UInt8](repeating: 0x47, count: 64).withUnsafeBytes {
                send(garbage.fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            let garbageClosed = RawSocket.closedByPeer(garbage, within: .seconds(5))
            let stream = try Guest.open(as: newcomer.identity, to: target)
            let answered = try stream.receive()?.type
            stream.connection.close()
            let waiting = silent + half
            let open = waiting.filter { !RawSocket.closedByPeer($0, within: .milliseconds(1)) }.count
            let closedLater = waiting.filter { RawSocket.closedByPeer($0, within: .seconds(20)) }.count
            return (answered, garbageClosed, open, closedLater)
        }
        #expect(seen.answered == .zoneClocks, "a peer got in past 80 waiting connections and 3 slots")
        #expect(seen.garbageClosed, "bytes that are no TLS record end the connection at once")
        #expect(seen.waitingOpen == 80, "the waiting connections are held, not closed at once")
        #expect(seen.waitingClosedLater == 80, "and closed once the handshake timeout passed")
        #expect(owner.logged("closed an incoming connection before its TLS handshake"))
    }

    @Test func theTLSHandshakeAndTheHelloMustBeDoneWithinTheHandshakeTimeout() async throws {
        let owner = try EnginePeer("owner") {
            $0.handshakeTimeout = .seconds(1)
        }
        let stranger = try RawPeer()
        // TLS completes, then nothing: the owner's hello, then its goodbye.
        let stream = try await stranger.connect(to: owner)
        let (frames, _) = await RawPeer.drain(stream)
        #expect(frames.map(\.type) == [.hello, .error])
        #expect(
            frames.compactMap { try? ErrorMessage(frame: $0) }
                == [ErrorMessage(code: .timeout, message: "no hello within 1.0 seconds")])
    }

    @Test func guestsOverTheLimitAreToldBusyAndTheOthersServed() async throws {
        let owner = try EnginePeer("owner") {
            $0.maxGuestConnections = 2
            $0.handshakeTimeout = .seconds(120)
            // The held guests say nothing: they must outlive a few handshakes on a loaded machine.
            $0.session.silenceTimeout = .seconds(120)
        }
        let guests = try (0..<3).map { _ in try RawPeer() }
        let target = owner
        // A held guest keeps its slot for `handshakeTimeout` from its hello, so every step that
        // needs both held runs on one thread of its own: an `await` between two steps may wait
        // minutes for a thread of the concurrency pool while the whole suite runs (synchronous
        // tests block it), and the owner then rightly closes the held guests as overdue.
        let seen = try await IOThread.run {
            () -> (clocks: [MessageType?], refused: [Frame], answer: JoinResponse?) in
            let held = try guests.prefix(2).map { try Guest.open(as: $0.identity, to: target) }
            defer { for stream in held { stream.connection.close() } }
            // Both held guests are in once their zone clocks arrive.
            let clocks = try held.map { try $0.receive()?.type }
            let refused = RawPeer.drainNow(try Guest.open(as: guests[2].identity, to: target))
            let answer = try Guest.ask(held[0], ZoneNotice(type: .membershipCheck, zone: "z"))
            return (clocks, refused, answer)
        }
        #expect(seen.clocks == [.zoneClocks, .zoneClocks])
        #expect(
            seen.refused.compactMap { try? ErrorMessage(frame: $0) }
                == [
                    ErrorMessage(
                        code: .busy,
                        message:
                            "too many peers are joining or leaving shares here right now: try again later")
                ])
        // A held guest is still answered.
        #expect(seen.answer == Guest.theAnswer)
        // The held guests are closed: their slots are free again (once the owner has seen both
        // closes: generous, as a loaded machine may take a while).
        #expect(
            await eventually(timeout: .seconds(90)) {
                let stream = try Guest.open(as: guests[2].identity, to: target)
                defer { stream.connection.close() }
                return try stream.receive()?.type == .zoneClocks
            })
    }

    @Test func aGuestThatAsksNothingIsClosedAfterTheHandshakeTimeout() async throws {
        let owner = try EnginePeer("owner") {
            $0.handshakeTimeout = .seconds(1)
        }
        let guest = try RawPeer()
        let target = owner
        let frames = try await IOThread.run {
            RawPeer.drainNow(try Guest.open(as: guest.identity, to: target))
        }
        #expect(frames.map(\.type).filter { $0 != .ping } == [.zoneClocks, .error])
        #expect(
            frames.compactMap { try? ErrorMessage(frame: $0) }
                == [
                    ErrorMessage(
                        code: .timeout,
                        message: "a joining connection must ask and be answered within 1.0 seconds")
                ])
    }

    @Test func strangersThatCameAndWentAreNotListedInPeers() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        _ = try shareZone(owner: owner, with: [participant])
        #expect(await eventually { owner.engine.status(of: participant.peer).connected })
        let guest = try RawPeer()
        let intruder = try RawPeer()
        let target = owner
        let answer = try await IOThread.run {
            let stream = try Guest.open(as: guest.identity, to: target)
            defer { stream.connection.close() }
            return try Guest.ask(stream, ZoneNotice(type: .membershipCheck, zone: "z"))
        }
        #expect(answer == Guest.theAnswer)
        let frames = try await intruder.converse(with: owner) { RawPeer.drainNow($0) }
        #expect(
            frames.compactMap { try? ErrorMessage(frame: $0) }
                == [ErrorMessage(code: .notMember, message: "not a member of any zone shared here")])
        let strangers: Set<PeerID> = [guest.peer, intruder.peer]
        #expect(
            await eventually {
                owner.engine.state.withLock { state in
                    !state.connections.values.contains { strangers.contains($0.peer) }
                }
            })
        #expect(owner.engine.peers().map(\.peer) == [participant.peer])
        #expect(owner.engine.state.withLock { state in strangers.allSatisfy { state.records[$0] == nil } })
    }
}

/// Plain TCP connections that never speak, as a flood opens them.
enum RawSocket {
    static func connect(to address: PeerAddress) throws -> TCPSocket {
        try TCPDialer.connect(host: address.host, port: address.port, timeout: .seconds(10))
    }

    /// True when the other side closes (or resets) the connection before `timeout`.
    static func closedByPeer(_ socket: TCPSocket, within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard Poll.wait(fd: socket.fileDescriptor, events: Int32(POLLIN), until: deadline) == .ready
            else { return false }
            var byte: UInt8 = 0
            let count = recv(socket.fileDescriptor, &byte, 1, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return true }
        }
    }
}

/// A guest connection, as `ShareGuest` opens it: TLS, a hello that says `joining`.
enum Guest {
    static func open(as identity: PeerIdentity, to target: EnginePeer) throws -> FrameStream {
        let socket = try RawSocket.connect(to: target.address)
        var configuration = TLSConfiguration.client(identity: identity, expecting: target.peer)
        configuration.readTimeout = .seconds(20)
        let stream = FrameStream(
            connection: try TLSConnection.handshake(over: socket, configuration: configuration))
        _ = try stream.exchangeHello(Hello(peerID: identity.peerID, capabilities: .joining))
        return stream
    }

    /// What the engine answers the membership checks of these tests: zone "z" is no share
    /// of its (`JoinHandler`'s answers are tested on their own).
    static let theAnswer = JoinResponse.refused(code: "unknown_share", message: "the owner has no share z")

    /// Sends one sharing message and returns the answer, skipping the zone clocks.
    static func ask(_ stream: FrameStream, _ notice: ZoneNotice) throws -> JoinResponse? {
        try stream.send(notice.frame)
        while let frame = try stream.receive() {
            if frame.type == .joinResponse { return try JoinResponse(frame: frame) }
        }
        return nil
    }
}

/// A real TLS 1.3 ClientHello, recorded once: sent on a raw socket, it passes the engine's
/// `HelloGate` and takes a handshake slot, and the socket then says nothing more (a client
/// stuck after its first flight).
enum RecordedClientHello {
    static let bytes: [UInt8] = {
        let listener = try! TCPListener.bind(host: "127.0.0.1", port: 0)
        let recorded = Mutex<[UInt8]?>(nil)
        let done = Condition()
        listener.start { socket in
            var record: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while record.count < 5 || record.count < 5 + (Int(record[3]) << 8 | Int(record[4])) {
                let count = buffer.withUnsafeMutableBytes {
                    recv(socket.fileDescriptor, $0.baseAddress, $0.count, 0)
                }
                guard count > 0 else { break }
                record += buffer[..<count]
            }
            socket.shutdown()
            done.withLock {
                recorded.withLock { $0 = record }
                done.broadcast()
            }
        }
        let identity = SignedSetFixtures.devices[4]
        IOThread.detach {
            var configuration = TLSConfiguration.client(identity: identity, expecting: identity.peerID)
            configuration.handshakeTimeout = .seconds(5)
            if let socket = try? TCPDialer.connect(
                host: "127.0.0.1", port: listener.port, timeout: .seconds(5))
            {
                _ = try? TLSConnection.handshake(over: socket, configuration: configuration)
            }
        }
        let bytes = done.withLock { () -> [UInt8] in
            while recorded.withLock({ $0 }) == nil { done.wait() }
            return recorded.withLock { $0! }
        }
        listener.close()
        return bytes
    }()

    /// A socket to `address` that has sent a whole ClientHello and nothing after.
    static func stuck(to address: PeerAddress) throws -> TCPSocket {
        let socket = try RawSocket.connect(to: address)
        _ = bytes.withUnsafeBytes {
            send(socket.fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        return socket
    }
}
