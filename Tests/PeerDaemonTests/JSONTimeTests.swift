import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Every time in the control protocol's JSON is an ISO 8601 UTC string with milliseconds
/// (SPEC §9, §15): walked over the answers of every command that gives times.
@Suite(.onOwnThreads) struct JSONTimeTests {
    @Test func everyTimeKeyOfEveryAnswerIsAnISO8601String() throws {
        let sample = try SampleAnswers.make()
        let link = try sample.owner.json("device", "link")
        var checked: [String: Int] = [:]
        for (command, answer) in sample.answers + [("device link", link)] {
            JSONWalk.visit(answer, path: command) { Self.check($0, checked: &checked) }
        }
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

    /// A time key's value is null, or ISO 8601 UTC with milliseconds; no other number looks
    /// like milliseconds since 1970 (a time under another name).
    static func check(_ node: JSONWalk.Node, checked: inout [String: Int]) {
        if let key = node.key, namesATime(key), node.value != .null {
            checked[key, default: 0] += 1
            let text = node.value.stringValue ?? ""
            #expect(
                text.hasSuffix("Z") && text.count == 24 && JSONTime.date(text) != nil,
                "\(node.path) is not ISO 8601 UTC with milliseconds: \(node.value)")
        }
        if case .int(let number) = node.value {
            #expect(
                !(1_000_000_000_000..<10_000_000_000_000).contains(number),
                "\(node.path) looks like a time: \(number)")
        }
    }
}
