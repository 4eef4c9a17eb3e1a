import Store

/// Which of two connections between the same two peers to keep, decided the same way at
/// both ends so that exactly one survives a simultaneous dial.
///
/// Connections dialed by the same peer: the newer one (the older is most likely dead and
/// not yet noticed). Dialed by each side: the one dialed by the smaller peer ID.
public enum ConnectionTieBreak {
    public static func keepsNew(existingDialer: PeerID, newDialer: PeerID, local: PeerID, remote: PeerID)
        -> Bool
    {
        if existingDialer == newDialer { return true }
        return newDialer == min(local, remote)
    }
}
