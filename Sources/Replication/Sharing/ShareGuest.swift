import Store
import Support

/// A short "guest" connection to a share's owner, to join, leave or check a membership:
/// TLS pinned to the owner's peer ID, a hello whose purpose is `join` (so the owner never
/// mistakes it for its replication connection with this peer), one sharing message, one
/// answer. The hello also sets the previous release's `joining` bit, which is all an owner
/// of that release reads.
enum ShareGuest {
    /// Sends `frame` to the owner at `host:port` and returns its answer.
    ///
    /// When both hellos announce `Capabilities.addresses`, `advertised` (where this peer
    /// listens) goes first, so that the owner can dial this peer once it is a member.
    static func exchange(
        _ frame: Frame, host: String, port: UInt16, owner: PeerID, identity: PeerIdentity, timeout: Duration,
        advertised: [PeerAddress] = [], deviceList: [[UInt8]] = []
    ) throws(AcceptError) -> JoinResponse {
        try exchange(
            { _ in frame }, host: host, port: port, owner: owner, identity: identity, timeout: timeout,
            advertised: advertised, deviceList: deviceList)
    }

    /// Sends the frame `message` makes for the capabilities both hellos agreed (a newer
    /// field only to an owner that reads it) and returns the owner's answer.
    static func exchange(
        _ message: (Capabilities) -> Frame, host: String, port: UInt16, owner: PeerID, identity: PeerIdentity,
        timeout: Duration, advertised: [PeerAddress] = [], deviceList: [[UInt8]] = []
    ) throws(AcceptError) -> JoinResponse {
        let target = PeerAddress(host: host, port: port)
        let address = target.description
        let stream: FrameStream
        do throws(PinnedDial.Failure) {
            stream = try PinnedDial.stream(to: target, expecting: owner, identity: identity, timeout: timeout)
        } catch {
            switch error {
            case .unreachable(let reason): throw .unreachable(address: address, reason: reason)
            case .wrongPeer(let presented):
                throw .wrongOwner(address: address, presented: presented, expected: owner)
            }
        }
        defer { stream.connection.close() }
        do {
            let agreement = try stream.exchangeHello(
                Hello(
                    peerID: identity.peerID,
                    capabilities: [.joining, .addresses, .persons, .membership, .signerLists],
                    maximumFrameSize: stream.maximumFrameSize, purpose: .join))
            var frames: [Frame] = []
            if agreement.capabilities.contains(.addresses), !advertised.isEmpty {
                frames.append(Addresses(Array(advertised.prefix(MessageLimits().maxAddresses))).frame())
            }
            if agreement.capabilities.contains(.persons), !deviceList.isEmpty {
                frames.append(DeviceListMessage(deviceList).frame())
            }
            frames.append(message(agreement.capabilities))
            // One write: an owner too busy to take this connection closes it as soon as the
            // hellos are exchanged, and a second write would fail (broken pipe) before its
            // "busy" could be read.
            try stream.send(frames)
            // The owner's session greets every connection with its zone clocks (and its
            // addresses): skip them.
            for _ in 0..<64 {
                guard let reply = try stream.receive() else {
                    throw AcceptError.protocolFailure("the owner closed the connection without answering")
                }
                if reply.type == .joinResponse { return try JoinResponse(frame: reply) }
                if reply.type == .error { throw ended(by: reply) }
            }
            throw AcceptError.protocolFailure("the owner did not answer")
        } catch let error as AcceptError {
            throw error
        } catch {
            throw .protocolFailure("\(error)")
        }
    }

    /// The owner closed the connection instead of answering: too busy (try again later), or
    /// for the reason its error frame gives.
    private static func ended(by frame: Frame) -> AcceptError {
        guard let error = try? ErrorMessage(frame: frame) else {
            return .protocolFailure("the owner ended the connection without a readable reason")
        }
        if error.code == .busy { return .busy(error.message) }
        return .protocolFailure("the owner ended the connection (\(error.code)): \(error.message)")
    }
}
