import Store

/// The participant's side of `peershare accept URL`: dial the owner named in the URL, check
/// its identity against the URL before anything secret is sent, present the token, and on
/// success record the zone in the shared store so replication picks it up.
public enum ShareJoiner {
    /// What a successful accept joined.
    public struct Joined: Equatable, Sendable {
        public let zone: String
        public let title: String
        public let permission: Permission
    }

    public static func join(
        _ url: ShareURL, identity: PeerIdentity, library: Library, timeout: Duration = .seconds(10)
    ) throws(AcceptError) -> Joined {
        guard url.owner != identity.peerID else { throw .ownShare }
        let known: Bool
        do {
            known = try library.sharedStore.zones().contains { $0.id == url.zone }
        } catch {
            throw .local("\(error)")
        }
        guard !known else { throw .alreadyMember(zone: url.zone) }
        let address = url.host.contains(":") ? "[\(url.host)]:\(url.port)" : "\(url.host):\(url.port)"
        let stream: FrameStream
        do {
            let socket = try TCPDialer.connect(host: url.host, port: url.port, timeout: timeout)
            var configuration = TLSConfiguration.client(identity: identity, expecting: url.owner)
            configuration.readTimeout = timeout
            let connection = try TLSConnection.handshake(over: socket, configuration: configuration)
            stream = FrameStream(connection: connection)
        } catch let error as SocketError {
            throw .unreachable(address: address, reason: error.description)
        } catch let error as TLSError {
            if case .unexpectedPeer(let presented, _) = error {
                throw .wrongOwner(address: address, presented: presented, expected: url.owner)
            }
            throw .unreachable(address: address, reason: error.description)
        } catch {
            throw .unreachable(address: address, reason: "\(error)")
        }
        defer { stream.connection.close() }
        let response: JoinResponse
        do {
            _ = try stream.exchangeHello(Hello(peerID: identity.peerID))
            try stream.send(JoinRequest(zone: url.zone, token: url.token).frame)
            guard let frame = try stream.receive() else {
                throw AcceptError.protocolFailure("the owner closed the connection")
            }
            response = try JoinResponse(frame: frame)
        } catch let error as AcceptError {
            throw error
        } catch {
            throw .protocolFailure("\(error)")
        }
        switch response {
        case .refused(let code, let message):
            throw .refused(code: code, message: message)
        case .accepted(let title, let permission):
            do {
                try library.sharedStore.prepareParticipantZone(url.zone, owner: url.owner)
            } catch {
                throw .local("\(error)")
            }
            return Joined(zone: url.zone, title: title, permission: permission)
        }
    }
}

/// The owner's side of a join request: check the token and the share's rules, record the
/// participant as accepted, and answer.
public enum JoinHandler {
    public static func respond(to request: JoinRequest, from peer: PeerID, library: Library) -> JoinResponse {
        let store = library.privateStore
        do {
            let valid = try store.isValidInvitation(zone: request.zone, token: request.token)
            let permission = try store.admit(peer: peer, zone: request.zone, tokenIsValid: valid)
            let title = try store.share(request.zone)?.title ?? ""
            return .accepted(title: title, permission: permission)
        } catch let error as StoreError {
            if case .unknownZone = error {
                return .refused(code: "unknown_share", message: "the owner has no share \(request.zone)")
            }
            return .refused(code: error.code, message: error.description)
        } catch {
            return .refused(code: "internal", message: "the owner could not check the invitation")
        }
    }
}

/// Why `accept` failed, for the person who typed it.
public enum AcceptError: Error, Equatable, Sendable, CustomStringConvertible {
    case ownShare
    case alreadyMember(zone: String)
    case unreachable(address: String, reason: String)
    case wrongOwner(address: String, presented: PeerID, expected: PeerID)
    case refused(code: String, message: String)
    case protocolFailure(String)
    case local(String)

    public var description: String {
        switch self {
        case .ownShare: return "this is your own share: you cannot accept it"
        case .alreadyMember(let zone): return "you already take part in share \(zone)"
        case .unreachable(let address, let reason):
            return "cannot reach the share's owner at \(address): \(reason)"
        case .wrongOwner(let address, let presented, let expected):
            return
                "the daemon at \(address) is not the share's owner: it is \(presented), the URL names \(expected)"
        case .refused(_, let message): return "the owner refused: \(message)"
        case .protocolFailure(let detail): return "accepting failed: \(detail)"
        case .local(let detail): return "accepting failed here: \(detail)"
        }
    }

    /// A short machine-readable code for clients.
    public var code: String {
        switch self {
        case .ownShare: return "own_share"
        case .alreadyMember: return "already_member"
        case .unreachable: return "owner_unreachable"
        case .wrongOwner: return "wrong_owner"
        case .refused(let code, _): return code
        case .protocolFailure: return "protocol_error"
        case .local: return "local_error"
        }
    }
}
