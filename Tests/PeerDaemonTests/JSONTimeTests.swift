import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Every time in the control protocol's JSON is an ISO 8601 UTC string with milliseconds
/// (SPEC §9, §15): walked over the answers of every command that gives times.
@Suite(.onOwnThreads) struct JSONTimeTests {
    @Test func everyTimeKeyOfEveryAnswerIsAnISO8601String() throws {
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

        var checked: [String: Int] = [:]
        for peer in [alice, bob] {
            let answers: [(String, JSON)] = [
                ("status", try peer.json("status")), ("peers", try peer.json("peers")),
                ("device list", try peer.json("device", "list")), ("history", try peer.json("history")),
                ("share list", try peer.json("share", "list")),
                ("share show", try peer.json("share", "show", share)),
                ("photo list", try peer.json("photo", "list")),
                ("rating list", try peer.json("rating", "list", photo)),
            ]
            for (command, answer) in answers {
                Self.walk(answer, path: "\(peer.name) \(command)", checked: &checked)
            }
        }
        let link = try alice.json("device", "link")
        Self.walk(link, path: "device link", checked: &checked)
        // The walk met the times it should have, connected peers included.
        for key in ["last_seen", "connected_since", "timestamp", "created_at", "expires_at"] {
            #expect((checked[key] ?? 0) > 0, "no \(key) was checked: \(checked)")
        }
    }

    /// Whether a key names a time: `*_at`, `*_since`, `last_seen`, `last_confirmed`, `time`,
    /// `timestamp`.
    static func namesATime(_ key: String) -> Bool {
        key.hasSuffix("_at") || key.hasSuffix("_since") || key == "time" || key == "timestamp"
            || ["last_seen", "last_confirmed"].contains(key)
    }

    /// Checks every time key under `value` (null, or ISO 8601 UTC with milliseconds), and
    /// that no other number looks like milliseconds since 1970 (a time under another name).
    static func walk(_ value: JSON, path: String, checked: inout [String: Int]) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                if namesATime(key), member != .null {
                    checked[key, default: 0] += 1
                    let text = member.stringValue ?? ""
                    #expect(
                        text.hasSuffix("Z") && text.count == 24 && JSONTime.date(text) != nil,
                        "\(path).\(key) is not ISO 8601 UTC with milliseconds: \(member)")
                }
                walk(member, path: "\(path).\(key)", checked: &checked)
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                walk(item, path: "\(path)[\(index)]", checked: &checked)
            }
        case .int(let number):
            #expect(
                !(1_000_000_000_000..<10_000_000_000_000).contains(number),
                "\(path) looks like a time: \(number)")
        default:
            break
        }
    }
}
