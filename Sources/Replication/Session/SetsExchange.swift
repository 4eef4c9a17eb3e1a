import Store

/// Signed sets of one zone read for a peer: their bytes in order, the certificates of their
/// authors the peer has not been sent on this connection, and whether more are left.
public struct PreparedSets: Equatable, Sendable {
    public var sets: [SignedSetRow]
    public var certificates: [[UInt8]]
    public var more: Bool

    public init(sets: [SignedSetRow], certificates: [[UInt8]], more: Bool) {
        self.sets = sets
        self.certificates = certificates
        self.more = more
    }
}

/// What checking and applying a peer's signed sets came to: the sets the peer evidently
/// holds (every well-formed one it sent, taken or not), this side's sets afterwards, and
/// whether a gap showed that the peer's idea of what this side holds is wrong.
public struct SetsApplied: Equatable, Sendable {
    public var received: [PeerID: UInt64]
    /// Sets kept here that were not before: the other connections pass them on.
    public var stored = 0
    public var held: SeqVector
    public var gap: Bool
    /// Why the store could not take them at all (the connection then closes).
    public var failure: String?
    /// What was refused, and why, for the log.
    public var notes: [(level: SessionLogLevel, text: String)]

    public init(
        received: [PeerID: UInt64], held: SeqVector, gap: Bool, failure: String? = nil,
        notes: [(level: SessionLogLevel, text: String)] = []
    ) {
        self.received = received
        self.held = held
        self.gap = gap
        self.failure = failure
        self.notes = notes
    }

    public static func == (a: SetsApplied, b: SetsApplied) -> Bool {
        a.received == b.received && a.stored == b.stored && a.held == b.held && a.gap == b.gap
            && a.failure == b.failure
            && a.notes.map(\.text) == b.notes.map(\.text)
    }
}
