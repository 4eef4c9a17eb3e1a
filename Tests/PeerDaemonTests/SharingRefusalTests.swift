import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 10 item 1 with three real daemons: carol, read-write, pauses and tags a photo; alice
/// (the owner) lowers her to read-only meanwhile; carol resumes. Alice refuses the change,
/// carol's copy is undone, carol is told (history, `watch`, `sync`), and every replica ends
/// identical.
@Suite(.onOwnThreads) struct SharingRefusalTests {
    @Test func aChangeRefusedByTheOwnerIsUndoneOnItsAuthorAndReported() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach(carolPermission: "read-write")
        let since = try carol.json("history").arrayValue?.last?["token"]?.intValue ?? 0

        _ = try carol.json("pause")
        _ = try carol.json("tag", "add", shared.photo, "night")
        #expect(try carol.sees() == ["beach.jpg": ["night", "summer"]])
        _ = try alice.json("share", "permission", shared.share, carol.id, "read-only")
        let watch = try carol.daemon.startCLI("--json", "watch", "--type", "sync.refused", label: "watch")
        defer { watch.send(SIGTERM) }
        try waitUntil("carol's watch client to subscribe") { try carol.json("status")["watchers"] == 1 }
        _ = try carol.json("resume")

        // `sync --wait` on carol reports the refusal instead of "in sync"…
        let result = try CLI.run(
            ["--socket", carol.daemon.socketPath, "sync", "--wait", "--timeout", "30"], in: carol.directory,
            timeout: .seconds(45))
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains("in sync, but 2 change(s) made here were refused and undone"), "\(result)")
        #expect(result.stderr.contains("may not write to this share"), "\(result)")
        // …once: the next one is plain "in sync".
        try carol.syncWait()
        try peers.settle()
        for peer in peers.everyone {
            #expect(try peer.sees() == ["beach.jpg": ["summer"]], "\(peer.name)")
        }
        #expect(
            try carol.json("tag", "list").arrayValue?.compactMap { $0["name"]?.stringValue } == ["summer"])

        // The author is told in its history (author "refused:<owner>") and on `watch`.
        let history = try carol.json("history", "--since", "\(since)").arrayValue ?? []
        let undo = try #require(history.first { $0["author"]?.stringValue?.hasPrefix("refused:") == true })
        #expect(undo["author"]?.stringValue == "refused:\(alice.id)")
        #expect(
            Set((undo["changes"]?.arrayValue ?? []).compactMap { $0["type"]?.stringValue }) == ["delete"])
        try waitUntil("sync.refused on carol's watch: \(watch.stdout)") {
            watch.stdout.contains("sync.refused")
        }
        let event = try #require(
            watch.stdout.split(separator: "\n").compactMap { JSONLine.decode(Data($0.utf8)) }.first)
        #expect(event["data"]?["peer_id"]?.stringValue == alice.id)
        #expect(event["data"]?["zone"]?.stringValue == shared.share)
        #expect(event["data"]?["refused"]?.arrayValue?.count == 2)

        // Bob never saw "night"; nothing of it is anywhere.
        #expect(!(try bob.json("tag", "list").arrayValue ?? []).contains { $0["name"] == "night" })
        #expect(!(try alice.json("tag", "list").arrayValue ?? []).contains { $0["name"] == "night" })
        try peers.stop()
    }
}
