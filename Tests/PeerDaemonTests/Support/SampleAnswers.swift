import ControlProtocol
import Foundation
import TestSupport
import Testing

/// The JSON answers of the listing and showing commands, on two peers that share a photo
/// with tags and a rating: what the tests that check a convention over every answer (times
/// in ISO 8601, `id` on every object) walk, set up once here.
struct SampleAnswers {
    /// `(label, answer)`, the label naming the peer and the command (`alice share list`).
    let answers: [(String, JSON)]
    /// The peer that owns the share, left running for answers a test adds.
    let owner: SharingPeer
    /// Kept so that the participant's daemon runs as long as the answers are used.
    let participant: SharingPeer

    /// Alice shares a tagged photo with Bob (public read-write), both sync, Alice rates it;
    /// then both are asked `status`, `peers`, `device list`, `history`, `share list|show`,
    /// `photo list|show`, `tag list` and `rating list`.
    static func make() throws -> SampleAnswers {
        let alice = try SharingPeer("alice")
        let bob = try SharingPeer("bob")
        for peer in [alice, bob] { peer.join([alice, bob]) }
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(2048), tags: ["sea"])
        let created = try alice.json("share", "create", photo, "--public", "read-write")
        let share = try #require(created["share"]?.stringValue)
        _ = try bob.json("accept", try #require(created["url"]?.stringValue))
        try bob.syncWait()
        try alice.syncWait()
        _ = try alice.json("rate", photo, "4")

        var answers: [(String, JSON)] = [("alice share create", created)]
        for peer in [alice, bob] {
            let asked: [(String, JSON)] = [
                ("status", try peer.json("status")), ("peers", try peer.json("peers")),
                ("device list", try peer.json("device", "list")), ("history", try peer.json("history")),
                ("share list", try peer.json("share", "list")),
                ("share show", try peer.json("share", "show", share)),
                ("photo list", try peer.json("photo", "list")),
                ("photo show", try peer.json("photo", "show", photo)),
                ("tag list", try peer.json("tag", "list")),
                ("rating list", try peer.json("rating", "list", photo)),
            ]
            answers += asked.map { ("\(peer.name) \($0.0)", $0.1) }
        }
        return SampleAnswers(answers: answers, owner: alice, participant: bob)
    }
}

/// A depth-first walk over a JSON value that hands every value to a visitor with where it
/// is: the one place the convention tests go through answers.
enum JSONWalk {
    /// One value met on the walk.
    struct Node {
        /// `answer.key[index].key…`, for messages.
        let path: String
        /// The key it has in its object, or nil for the root and array elements.
        let key: String?
        /// The key of the array it is an element of, or nil when it is no array element
        /// (`""` for an array at the root).
        let arrayKey: String?
        let value: JSON
    }

    static func visit(_ value: JSON, path: String, _ visitor: (Node) -> Void) {
        visit(Node(path: path, key: nil, arrayKey: nil, value: value), visitor)
    }

    private static func visit(_ node: Node, _ visitor: (Node) -> Void) {
        visitor(node)
        switch node.value {
        case .object(let members):
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                visit(Node(path: "\(node.path).\(key)", key: key, arrayKey: nil, value: member), visitor)
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                let node = Node(
                    path: "\(node.path)[\(index)]", key: nil, arrayKey: node.key ?? "", value: item)
                visit(node, visitor)
            }
        default:
            break
        }
    }
}
