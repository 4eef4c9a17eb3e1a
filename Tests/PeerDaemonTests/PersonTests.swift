import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Every device belongs to a person (issue 12): founded on the first start, kept across
/// restarts, shown by `id` and `status`.
@Suite(.onOwnThreads) struct PersonTests {
    @Test func aDaemonFoundsItsPersonOnceAndKeepsItAcrossRestarts() throws {
        let directory = try TestDirectory()
        let first = try DaemonProcess.startReady(in: directory)
        let id = try first.json("id")
        let person = try #require(id["person_id"]?.stringValue)
        let peer = try #require(id["peer_id"]?.stringValue)
        #expect(person.count == 63 && person != peer)
        #expect(try first.json("status")["person_id"]?.stringValue == person)
        try first.stop()
        let second = try first.restart(label: "second")
        #expect(try second.json("id")["person_id"]?.stringValue == person)
        #expect(try second.json("id")["peer_id"]?.stringValue == peer)

        let other = try DaemonProcess.startReady(in: try TestDirectory())
        #expect(try other.json("id")["person_id"]?.stringValue != person)
    }
}
