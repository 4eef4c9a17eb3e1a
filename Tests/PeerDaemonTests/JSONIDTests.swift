import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Every object that stands for a thing carries its ID under `id` (SPEC §15), the older
/// key beside it with the same value for one release: walked over the answers of the
/// listing and showing commands.
@Suite(.onOwnThreads) struct JSONIDTests {
    /// Arrays whose elements are values, not things with an identity (a peer's known
    /// addresses: an address with where it was learnt).
    static let valueLists: Set<String> = ["addresses"]

    @Test func everyObjectOfEveryAnswerHasAStringID() throws {
        let sample = try SampleAnswers.make()
        var objects = 0
        var aliases: Set<String> = []
        for (command, answer) in sample.answers where !command.hasSuffix(" status") {
            JSONWalk.visit(answer, path: command) { node in
                // A thing is the answer itself or an element of a list, unless a list of values.
                guard case .object(let members) = node.value, node.key == nil,
                    !Self.valueLists.contains(node.arrayKey ?? "")
                else { return }
                objects += 1
                let id = members["id"]?.stringValue
                #expect(id?.isEmpty == false, "\(node.path) has no string id: \(node.value)")
                if let alias = Self.olderKey(command: command, arrayKey: node.arrayKey, members: members) {
                    aliases.insert(alias)
                    #expect(Self.text(members[alias]) == id, "\(node.path).\(alias) is not its id")
                }
            }
        }
        #expect(objects > 20, "too few objects were walked: \(objects)")
        #expect(aliases == ["share", "peer_id", "device_id", "token", "person_id"])
    }

    /// The key that named the object before `id`, kept for one release.
    static func olderKey(command: String, arrayKey: String?, members: [String: JSON]) -> String? {
        switch arrayKey {
        case "participants": return members["peer_id"] != nil ? "peer_id" : "person_id"
        case "requests": return "peer_id"
        case nil, "":
            if command.hasSuffix(" share list") || command.hasSuffix(" share show")
                || command.hasSuffix(" share create")
            {
                return "share"
            }
            if command.hasSuffix(" peers") { return "peer_id" }
            if command.hasSuffix(" device list") { return "device_id" }
            if command.hasSuffix(" history") { return "token" }
            return nil
        default: return nil
        }
    }

    /// A string as it is, a number as text (a history token).
    static func text(_ value: JSON?) -> String? {
        if case .int(let number) = value { return String(number) }
        return value?.stringValue
    }
}
