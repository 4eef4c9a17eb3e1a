import Store

/// What two peers settled on after exchanging hellos: the protocol version and the
/// features both sides have.
///
/// Computed identically on both ends from the two hellos, so no further round trip is
/// needed: the version is the lower of the two announced ones, the features their
/// intersection.
public struct VersionAgreement: Equatable, Sendable {
    public let version: UInt16
    public let capabilities: Capabilities
    /// What the other side came for (`Hello.statedPurpose`): read from its hello alone, not
    /// agreed, since each side says what it wants of the other.
    public let purpose: HelloPurpose
    /// The largest frame body this side may send: what the other side accepts (the first
    /// version's 16 MiB when it does not say), never more than this side's own limit.
    public let sendableFrameSize: Int

    /// Agrees on a version with `remote`, whose TLS identity is `authenticatedPeer`.
    ///
    /// Refuses a hello whose peer ID is not the TLS one, and a peer whose versions do not
    /// overlap ours (`supported`); a peer announcing a higher version is fine, as it also
    /// speaks every lower one.
    public init(
        local: Hello, remote: Hello, authenticatedPeer: PeerID,
        supported: ClosedRange<UInt16> = Hello.supportedVersions
    ) throws(WireError) {
        guard remote.peerID == authenticatedPeer else { throw .helloPeerMismatch }
        let version = min(local.version, remote.version)
        guard supported.contains(version) else {
            throw .unsupportedVersion(remote: remote.version, supported: supported)
        }
        self.version = version
        self.capabilities = local.capabilities.intersection(remote.capabilities)
        self.purpose = remote.statedPurpose
        let own = local.maximumFrameSize ?? WireLimits.defaultMaximumFrameSize
        // A peer claiming less than a useful frame is taken at a workable minimum.
        let theirs = max(
            remote.maximumFrameSize ?? WireLimits.defaultMaximumFrameSize, WireLimits.minimumFrameSize)
        self.sendableFrameSize = min(own, theirs)
    }
}
