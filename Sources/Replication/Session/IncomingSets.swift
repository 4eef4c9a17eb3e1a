import Store

/// Change sets received and not yet answered, oldest first: answers go out in the order
/// the sets arrived, as the sender expects.
struct IncomingSets: Sendable {
    struct Entry: Sendable {
        var zone: String
        var until: VectorClock
        /// False for a set of a zone not replicated with this peer: answered with an empty
        /// ack, not applied.
        var applying: Bool
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }

    mutating func append(_ entry: Entry) { entries.append(entry) }

    /// Takes the oldest set being applied, which an apply result must be about.
    mutating func takeApplied(zone: String) -> Entry? {
        guard let first = entries.first, first.applying, first.zone == zone else { return nil }
        entries.removeFirst()
        return first
    }

    /// Takes the ignored sets at the front, now that everything before them is answered.
    mutating func takeIgnored() -> [Entry] {
        var taken: [Entry] = []
        while let first = entries.first, !first.applying {
            taken.append(entries.removeFirst())
        }
        return taken
    }
}
