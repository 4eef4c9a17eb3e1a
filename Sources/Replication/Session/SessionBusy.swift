/// What keeps a session from being idle: why a connection's peer is not in sync yet, as
/// `sync --wait` reports it when it gives up (and tests when they time out).
public struct SessionBusy: OptionSet, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The hellos or the peer's zone clocks have not arrived.
    public static let opening = SessionBusy(rawValue: 1 << 0)
    /// The peer has not announced a zone replicated with it.
    public static let zoneNotAnnounced = SessionBusy(rawValue: 1 << 1)
    /// Changes are being read, sent or waiting for the peer's answer.
    public static let sendingChanges = SessionBusy(rawValue: 1 << 2)
    /// Changes from the peer are being applied, or refused ones undone.
    public static let applyingChanges = SessionBusy(rawValue: 1 << 3)
    /// Signed sets the peer lacks are being read or are still to be sent.
    public static let sendingSets = SessionBusy(rawValue: 1 << 4)
    /// Signed sets sent have not all been answered.
    public static let setsUnanswered = SessionBusy(rawValue: 1 << 5)
    /// Signed sets from the peer are being checked and applied.
    public static let applyingSets = SessionBusy(rawValue: 1 << 6)
    /// Photo data is queued, in transfer, or waiting for the peer to have it.
    public static let fetchingData = SessionBusy(rawValue: 1 << 7)

    private static let names: [(SessionBusy, String)] = [
        (.opening, "opening"), (.zoneNotAnnounced, "a zone not announced by the peer"),
        (.sendingChanges, "changes to send"), (.applyingChanges, "changes being applied"),
        (.sendingSets, "signed sets to send"), (.setsUnanswered, "signed sets not answered"),
        (.applyingSets, "signed sets being applied"), (.fetchingData, "photo data to fetch"),
    ]

    public var description: String {
        let parts = Self.names.filter { contains($0.0) }.map(\.1)
        return parts.isEmpty ? "idle" : parts.joined(separator: ", ")
    }
}
