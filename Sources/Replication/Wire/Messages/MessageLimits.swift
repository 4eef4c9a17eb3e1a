/// Bounds checked while decoding replication messages, so that a peer cannot make this one
/// allocate more than these sizes whatever lengths and counts it writes.
public struct MessageLimits: Sendable {
    /// Longest zone ID, in UTF-8 bytes (zone IDs are UUIDs: 36).
    public var maxZoneIDBytes = 200
    /// Most zones in one zone-clocks message.
    public var maxZones = 100_000
    /// Most entries in one vector clock (peers that ever wrote to a zone).
    public var maxClockEntries = 4_096
    /// Largest photo-data chunk a request may ask for and a chunk may carry.
    public var maxChunkBytes = 1 << 20
    /// Longest human-readable reason in an error message.
    public var maxReasonBytes = 4_096
    /// Most addresses in one addresses message.
    public var maxAddresses = 16
    /// Longest host name in an address, in UTF-8 bytes (DNS names are at most 253).
    public var maxHostBytes = 255
    /// Most entries in one device-list message (a person's list holds at most 1,024).
    public var maxDeviceListEntries = 1_024
    /// Largest device-list entry, in bytes (an entry adding a device carries its
    /// certificate: at most 4 KiB).
    public var maxDeviceListEntryBytes = 8_192
    /// Most operations in one membership-operations message (a zone's log holds at most
    /// `MembershipLog.maximumOperations`; larger logs go in several messages).
    public var maxMembershipOperations = 10_000
    /// Largest membership operation, in bytes (a removal with a cut-off for each of 1,024
    /// devices is about 75 KiB).
    public var maxMembershipOperationBytes = 128 * 1024
    /// Most author certificates in one signed-sets message (each author's is sent once per
    /// connection).
    public var maxSetAuthors = 1_024
    /// Devices one neighbours message may name.
    public var maxNeighbours = 1_024
    /// Most records in one address-records message (one per member device of the zones
    /// shared with the receiver).
    public var maxAddressRecords = 1_024
    /// Largest certificate, in bytes (an Ed25519 self-signed certificate is about 300).
    public var maxCertificateBytes = 4_096
    /// Most sets in one signed-sets message.
    public var maxSignedSets = 100_000
    /// Bounds of the change-set codec inside a change-set message.
    public var changeSet = ChangeSetCodec.Limits()

    public init() {}
}
