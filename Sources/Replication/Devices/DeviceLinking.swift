import FoundationEssentials
import Store
import Support

/// Both ends of linking a device (SPEC §12): the person's device makes one-time links and
/// answers a new device's link request by signing it onto the person's device list; the new
/// device asks, checks the list it gets, and takes the person as its own.
///
/// Why one place: the checks of each side (a token used once, unexpired, kept only as a
/// hash; the certificate put on the list being the connection's; the list received being
/// the person's with this device on it) are the whole security of linking.
public enum DeviceLinking {
    /// How long a link stays valid by default.
    public static let defaultValidity: Duration = .seconds(600)

    /// Makes a link to give to a new device: a 128-bit token, kept as its SHA-256 until
    /// `validity` has passed or it is used.
    public static func makeLink(
        library: Library, address: PeerAddress, name: String?, validity: Duration, now: UInt64
    ) throws -> (url: DeviceLinkURL, expiresAt: UInt64) {
        let token = SHA256Hasher.hex((0..<16).map { _ in UInt8.random(in: 0...255) })
        let expiresAt =
            now + UInt64(validity.components.seconds) * 1000
            + UInt64(validity.components.attoseconds / 1_000_000_000_000_000)
        try library.privateStore.addDeviceLink(
            tokenHash: tokenHash(token), expiresAt: expiresAt, name: name, now: now)
        return (DeviceLinkURL(address: address, device: library.localPeer, token: token), expiresAt)
    }

    static func tokenHash(_ token: String) -> String {
        SHA256Hasher.hex(SHA256Hasher.digest(Array(token.lowercased().utf8)))
    }

    /// The linking device's answer to `frame` from `peer` (the connection's authenticated
    /// device): the person's device list with `peer` added, or why not. Nothing changes
    /// unless it is the list.
    static func answer(
        _ frame: Frame, from peer: PeerID, library: Library, identity: PeerIdentity, now: UInt64
    )
        -> LinkResponse
    {
        guard let request = try? LinkRequest(frame: frame) else {
            return .refused(code: "protocol_error", message: "the link request was malformed")
        }
        guard SHA256Hasher.digest(request.certificate) == peer.bytes,
            Signature.isEd25519Certificate(request.certificate)
        else {
            return .refused(
                code: "invalid", message: "the certificate sent is not the one the device connected with")
        }
        do {
            let store = library.privateStore
            var list = try LocalPerson.current(in: store)
            guard !list.isOnList(peer) else {
                return .refused(
                    code: "already_linked", message: "this device is already one of the person's devices")
            }
            let name: String
            switch try store.useDeviceLink(tokenHash: tokenHash(request.token), now: now) {
            case .unknown:
                return .refused(
                    code: "link_unknown",
                    message:
                        "this link is not one of \(library.localPeer.short)'s (or it was tampered with): "
                        + "make a new one with `peershare device link` on a device of the person")
            case .expired(let at):
                return .refused(
                    code: "link_expired",
                    message: "this link expired at \(iso(at)): make a new one with `peershare device link`")
            case .alreadyUsed(let at):
                return .refused(
                    code: "link_used",
                    message:
                        "this link was already used (at \(iso(at))): make a new one with `peershare device link`"
                )
            case .used(let given):
                name = request.name.isEmpty ? (given ?? "device") : request.name
            }
            let entry = try list.append(
                .add(
                    certificate: request.certificate,
                    name: String(name.utf8.prefix(DeviceListEntry.maximumNameBytes))!),
                by: identity, at: now)
            try store.saveDeviceListEntries([(entry.hash, entry.encoded)], of: list.person, local: true)
            return .linked(entries: list.entries.map(\.encoded))
        } catch {
            return .refused(code: "internal", message: "the linking device failed: \(error)")
        }
    }

    /// Joins this fresh daemon to the person of the device `url` names; returns the person's
    /// list, now this library's. Refused, with nothing changed, for a library of its own,
    /// unless `merge`: then its unshared photos, tags and ratings join the person's library
    /// (tags deduplicated by the usual rule); a library with shares is refused even so (a
    /// share's signed membership names its owner person, which cannot change).
    static func join(
        _ url: DeviceLinkURL, name: String, merge: Bool, identity: PeerIdentity, library: Library,
        timeout: Duration
    ) throws(DeviceLinkError) -> DeviceList {
        guard url.device != identity.peerID else {
            throw .refused(
                code: "invalid", message: "this link is this daemon's own: use it on the new device")
        }
        do {
            let held = try library.heldLibrary()
            guard held.shares == 0 else {
                throw DeviceLinkError.notFresh(photos: held.photos, shares: held.shares, merging: merge)
            }
            guard held.photos == 0 || merge else {
                throw DeviceLinkError.notFresh(photos: held.photos, shares: 0, merging: false)
            }
        } catch let error as DeviceLinkError {
            throw error
        } catch {
            throw .local("\(error)")
        }
        let request = LinkRequest(token: url.token, name: name, certificate: identity.certificateDER)
        let response = try exchange(request.frame, with: url, identity: identity, timeout: timeout)
        switch response {
        case .refused(let code, let message): throw .refused(code: code, message: message)
        case .linked(let entries):
            let list: DeviceList
            do {
                guard let decoded = try DeviceList(encodedEntries: entries) else {
                    throw DeviceLinkError.protocolFailure("an empty device list")
                }
                list = decoded
            } catch let error as DeviceLinkError {
                throw error
            } catch {
                throw .protocolFailure("a device list that does not check: \(error)")
            }
            guard
                list.devices.contains(where: {
                    $0.id == identity.peerID && $0.certificate == identity.certificateDER
                }),
                list.isOnList(url.device)
            else {
                throw .protocolFailure("a device list without this device or the linking one on it")
            }
            do {
                try library.privateStore.saveDeviceListEntries(
                    list.entries.map { ($0.hash, $0.encoded) }, of: list.person, local: true)
            } catch {
                throw .local("\(error)")
            }
            return list
        }
    }

    /// One link request and its answer, on a connection pinned to the linking device whose
    /// hello says `link`.
    private static func exchange(
        _ frame: Frame, with url: DeviceLinkURL, identity: PeerIdentity, timeout: Duration
    ) throws(DeviceLinkError) -> LinkResponse {
        let address = url.address.description
        let stream: FrameStream
        do throws(PinnedDial.Failure) {
            stream = try PinnedDial.stream(
                to: url.address, expecting: url.device, identity: identity, timeout: timeout)
        } catch {
            switch error {
            case .unreachable(let reason): throw .unreachable(address: address, reason: reason)
            case .wrongPeer(let presented): throw .wrongDevice(address: address, presented: presented)
            }
        }
        defer { stream.connection.close() }
        do {
            _ = try stream.exchangeHello(
                Hello(
                    peerID: identity.peerID, capabilities: [], maximumFrameSize: stream.maximumFrameSize,
                    purpose: .link))
            try stream.send(frame)
            while let reply = try stream.receive() {
                if reply.type == .linkResponse { return try LinkResponse(frame: reply) }
                if reply.type == .error {
                    let message = (try? ErrorMessage(frame: reply))?.message ?? "an error"
                    throw DeviceLinkError.protocolFailure("the device closed the connection: \(message)")
                }
            }
            throw DeviceLinkError.protocolFailure("the device closed the connection without answering")
        } catch let error as DeviceLinkError {
            throw error
        } catch {
            throw .protocolFailure("\(error)")
        }
    }

    private static func iso(_ milliseconds: UInt64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(.iso8601)
    }
}
