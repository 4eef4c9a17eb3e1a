import Support

/// The values each kind of field accepts from a peer: what every receiver checks on every
/// received field (`LibraryStore.validate`), so that a tampered or buggy peer cannot store
/// a value of the wrong type or range.
extension FieldKind {
    /// Whether a received `value` is valid for this kind, under the store's `limits`, in a
    /// zone owned by `owner` (a share names as its owner a device of the owner's person).
    func accepts(_ value: SQLValue, limits: StoreLimits, owner: OwnerSide) -> Bool {
        switch self {
        case .name:
            guard case .text(let name) = value else { return false }
            return !name.isEmpty && name.utf8.count <= limits.maxNameBytes
                && LibraryStore.hasNoControlCharacters(name)
        case .identifier, .reference:
            guard case .text(let text) = value else { return false }
            return !text.isEmpty && text.utf8.count <= 64
        case .uuid:
            guard case .text(let text) = value else { return false }
            return LibraryStore.isCanonicalUUID(text)
        case .hexDigest:
            guard case .text(let text) = value else { return false }
            return LibraryStore.isHexDigest(text)
        case .peerID:
            guard case .text(let text) = value else { return false }
            return (try? PeerID(parsing: text)) != nil
        case .zoneOwner:
            guard case .text(let text) = value, let device = try? PeerID(parsing: text) else { return false }
            return owner.included(device)
        case .permission:
            guard case .text(let text) = value else { return false }
            return Permission(rawValue: text) != nil
        case .participantStatus:
            guard case .text(let text) = value else { return false }
            return ParticipantStatus(rawValue: text) != nil
        case .address:
            // A DNS name is at most 253 bytes; the port and brackets fit in the rest.
            guard case .text(let text) = value, text.utf8.count <= 300,
                LibraryStore.hasNoControlCharacters(text),
                let address = PeerAddress(parsing: text)
            else { return false }
            return !address.isWildcard && address.port != 0
        case .milliseconds:
            guard case .integer = value else { return false }
            return true
        case .byteCount:
            guard case .integer(let size) = value else { return false }
            return size >= 0 && size <= limits.maxPhotoBytes
        case .thumbnail:
            if value == .null { return true }
            guard case .blob(let bytes) = value else { return false }
            return bytes.count <= limits.maxThumbnailBytes
        case .rating:
            guard case .integer(let rating) = value else { return false }
            return (1...5).contains(rating)
        case .flag:
            return value == .integer(0) || value == .integer(1)
        case .tombstone(let merges):
            return value == .integer(1) || (merges && value == .integer(2))
        }
    }
}
