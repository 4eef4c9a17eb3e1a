import Store

extension SignedSetHeader {
    /// Decodes a header kept without its body (fields, then signature, nothing after).
    /// Checks its shape, not its signature.
    public init(decoding bytes: [UInt8]) throws(SignedSetError) {
        var reader = BinaryReader(bytes)
        self = try Self.read(from: &reader)
        try wire { () throws(WireError) in try reader.expectEnd(of: "signed change set header") }
    }

    /// Reads the fields and the signature, checking every value a well-formed header can hold.
    static func read(from reader: inout BinaryReader) throws(SignedSetError) -> SignedSetHeader {
        let version = try wire { () throws(WireError) in try reader.readUInt8("signed change set version") }
        guard version == formatVersion else {
            if version > formatVersion { throw .newerFormat(version: version, supported: formatVersion) }
            throw .invalidField(field: "format version", reason: "\(version) is not a format")
        }
        let header = try wire { () throws(WireError) in
            (
                zone: try reader.readString("zone", maximumBytes: maximumZoneBytes),
                author: try reader.readPeerID("author"), seq: try reader.readUInt64("seq"),
                prevHash: try reader.readFixed(hashSize, "previous hash"),
                bodyHash: try reader.readFixed(hashSize, "body hash"),
                bodyLength: Int(try reader.readUInt32("body length")),
                signature: try reader.readFixed(Signature.size, "signature")
            )
        }
        guard header.seq >= 1 else { throw .invalidField(field: "seq", reason: "0 (sets count from 1)") }
        guard (header.seq == 1) == (header.prevHash == noPrevious) else {
            throw .invalidField(
                field: "previous hash",
                reason: header.seq == 1
                    ? "set 1 names a previous set" : "set \(header.seq) names no previous set")
        }
        return SignedSetHeader(
            zone: header.zone, author: header.author, seq: header.seq, prevHash: header.prevHash,
            bodyHash: header.bodyHash, bodyLength: header.bodyLength, signature: header.signature)
    }
}

/// Runs reads of a `BinaryReader`, turning its errors into `SignedSetError`s.
func wire<T>(_ body: () throws(WireError) -> T) throws(SignedSetError) -> T {
    do { return try body() } catch { throw SignedSetError(error) }
}
