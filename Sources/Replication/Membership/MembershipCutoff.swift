import Store

extension MembershipOperation {
    /// Where a removed person's device stops counting: the last change-set sequence number
    /// of that device (and that set's hash) which the remover holds in the zone.
    ///
    /// Why: "after the removal" cannot be judged by the removed device's own clock, which it
    /// could set back. A set of that device with a sequence number above the cut-off comes
    /// after the removal; one at or below it must lie on the device's chain ending at
    /// `hash`, which the removed device cannot forge without a second set for a number it
    /// already used.
    public struct Cutoff: Hashable, Sendable {
        public let device: PeerID
        public let seq: UInt64
        /// SHA-256 of the device's set number `seq` (32 zero bytes when `seq` is 0).
        public let hash: [UInt8]

        public init(device: PeerID, seq: UInt64, hash: [UInt8]) {
            self.device = device
            self.seq = seq
            self.hash = hash
        }
    }
}
