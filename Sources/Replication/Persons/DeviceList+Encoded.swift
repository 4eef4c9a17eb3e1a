extension DeviceList {
    /// Rebuilds a list from its encoded entries, founding first, each checked as it is
    /// received; nil for an empty list. Throws the first entry that does not decode or check.
    /// Entries still waiting for a parent stay in `waiting` for the caller to judge.
    init?(encodedEntries entries: [[UInt8]]) throws {
        guard let first = entries.first else { return nil }
        self = try DeviceList(founding: try DeviceListEntry(decoding: first))
        for bytes in entries.dropFirst() { try receive(try DeviceListEntry(decoding: bytes)) }
    }
}
