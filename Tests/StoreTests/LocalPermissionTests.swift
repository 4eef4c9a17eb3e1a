import Testing

@testable import Store

/// Local commands a participant's permission does not allow are refused at once, with the
/// sample's canUpdateRecord / canDeleteRecord wording, and change nothing.
@Suite struct LocalPermissionTests {
    enum Command: String, CaseIterable, Sendable {
        case rename, delete, tag, untag, toggle, deleteTag, rate, deleteRating

        /// Runs the command against the pair's shared photo at the participant.
        func run(_ pair: SharedPair, tag: String, rating: String) throws {
            let store = pair.participant.shared
            let photo = pair.photo
            switch self {
            case .rename:
                try store.renamePhoto(photo, to: "mine.jpg")
            case .delete:
                try store.deletePhoto(photo)
            case .tag:
                _ = try store.tag(photo: photo, name: "mine")
            case .untag:
                try store.untag(photo: photo, tag: tag)
            case .toggle:
                _ = try store.toggle(photo: photo, tag: tag)
            case .deleteTag:
                try store.deleteTag(tag)
            case .rate:
                _ = try store.rate(photo: photo, value: 1)
            case .deleteRating:
                try store.deleteRating(rating)
            }
        }
    }

    /// A pair whose participant holds a tagged, rated photo; returns the tag and rating IDs.
    static func setUp(_ permission: Permission) throws -> (SharedPair, String, String) {
        let pair = try SharedPair(permission: permission)
        let rating = try pair.owner.priv.rate(photo: pair.photo, value: 4)
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        let tag = try #require(try pair.owner.priv.photo(pair.photo)?.tags.first?.id)
        return (pair, tag, rating)
    }

    /// The action each command names when refused (toggling a carried tag untags it).
    static let actions: [Command: String] = [
        .rename: "rename this photo", .delete: "delete this photo", .tag: "tag this photo",
        .untag: "untag this photo", .toggle: "untag this photo", .deleteTag: "delete this tag",
        .rate: "rate this photo", .deleteRating: "delete this rating",
    ]

    @Test(arguments: Command.allCases)
    func aReadOnlyParticipantIsRefused(command: Command) throws {
        let (pair, tag, rating) = try Self.setUp(.readOnly)
        let store = pair.participant.shared
        let dump = try store.canonicalDump(zone: pair.zone)
        let token = try store.lastHistoryToken()
        let action = try #require(Self.actions[command])
        #expect(
            throws: StoreError.permissionDenied("cannot \(action): you have read-only access to this share")
        ) {
            try command.run(pair, tag: tag, rating: rating)
        }
        #expect(try store.canonicalDump(zone: pair.zone) == dump)
        #expect(try store.lastHistoryToken() == token)
    }

    @Test(arguments: Command.allCases)
    func aRemovedParticipantIsRefused(command: Command) throws {
        let (pair, tag, rating) = try Self.setUp(.readWrite)
        try pair.owner.priv.setParticipant(zone: pair.zone, peer: pair.participant.peer, status: .removed)
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        let store = pair.participant.shared
        let dump = try store.canonicalDump(zone: pair.zone)
        let action = try #require(Self.actions[command])
        #expect(throws: StoreError.permissionDenied("cannot \(action): you are not a member of this share")) {
            try command.run(pair, tag: tag, rating: rating)
        }
        #expect(try store.canonicalDump(zone: pair.zone) == dump)
    }

    @Test(arguments: Command.allCases)
    func aReadWriteParticipantIsAllowed(command: Command) throws {
        let (pair, tag, rating) = try Self.setUp(.readWrite)
        let token = try pair.participant.shared.lastHistoryToken()
        try command.run(pair, tag: tag, rating: rating)
        #expect(try pair.participant.shared.lastHistoryToken() > token)
    }
}
