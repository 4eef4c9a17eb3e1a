import ControlProtocol
import Foundation

/// `peers`, `sync [--wait] [--timeout S]`, `pause [PEER]`, `resume [PEER]`.
enum PeerCommands {
    static let peerArgument = ArgumentSpec(
        placeholder: "PEER_ID", key: "peer",
        help: "one peer (ID or unique prefix); all if omitted")

    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["peers"], summary: "known peers, connected or not", request: .peers,
            mode: .call(format: list)),
        CommandSpec(
            path: ["sync"],
            summary: "sync now; with --wait, return once every zone is in sync (photo data included)",
            options: [
                OptionSpec(
                    name: "--wait", key: "wait", help: "wait until in sync; non-zero on timeout"
                ),
                OptionSpec(
                    name: "--timeout", placeholder: "SECONDS", key: "timeout",
                    help: "how long --wait waits (default 60)"),
            ],
            request: .sync, mode: .call(format: syncResult), daemonWait: ("timeout", 60)),
        CommandSpec(
            path: ["pause"], summary: "pause replication with all peers or one (local commands keep working)",
            arguments: [peerArgument], request: .pause,
            mode: .call(format: { result in
                result["peer_id"] == .null
                    ? "paused all peers" : "paused \(Formatting.text(result["peer_id"]))"
            })),
        CommandSpec(
            path: ["resume"], summary: "resume replication with all peers or one", arguments: [peerArgument],
            request: .resume,
            mode: .call(format: { result in
                result["peer_id"] == .null
                    ? "resumed all peers" : "resumed \(Formatting.text(result["peer_id"]))"
            })),
    ]

    /// "in sync", naming the members that could not be reached (and were not waited for).
    private static func syncResult(_ result: JSON) -> String {
        guard result["in_sync"] == true else { return "sync started" }
        let unreachable = (result["unreachable"]?.arrayValue ?? []).map { member in
            "\(Formatting.text(member["peer_id"]).prefix(15)) (\(Formatting.text(member["reason"])))"
        }
        guard !unreachable.isEmpty else { return "in sync" }
        return "in sync with every reachable peer; unreachable: " + unreachable.joined(separator: ", ")
    }

    /// A JSON time (ISO 8601) as "12s ago", or "never".
    private static func ago(_ time: String?) -> String {
        guard let time, let date = JSONTime.date(time) else { return "never" }
        let seconds = max(0, Date().timeIntervalSince(date))
        return seconds < 1 ? "now" : Formatting.duration(seconds: seconds) + " ago"
    }

    private static func list(_ result: JSON) -> String {
        let peers = result.arrayValue ?? []
        guard !peers.isEmpty else { return "no peers" }
        return Formatting.columns(
            ["PEER", "NAME", "STATE", "IN SYNC", "LAST SEEN", "IN", "OUT", "ADDRESS"],
            peers.map { peer in
                let state =
                    peer["paused"] == true ? "paused" : (peer["connected"] == true ? "connected" : "offline")
                return [
                    Formatting.text(peer["peer_id"]).prefix(15).description,
                    Formatting.who(person: peer["person_name"], device: peer["device_name"]), state,
                    inSync(peer), ago(peer["last_seen"]?.stringValue),
                    Formatting.bytes(peer["bytes_in"]?.intValue ?? 0),
                    Formatting.bytes(peer["bytes_out"]?.intValue ?? 0),
                    address(peer),
                ]
            })
    }

    /// "yes", or "no" with why while connected ("no (busy: changes to send)").
    private static func inSync(_ peer: JSON) -> String {
        guard peer["in_sync"] != true else { return "yes" }
        guard let behind = peer["behind"]?.stringValue else { return "no" }
        return "no (\(behind))"
    }

    /// The address in use (else the first a dial tries), and how many more are known.
    private static func address(_ peer: JSON) -> String {
        let known = peer["addresses"]?.arrayValue ?? []
        let shown = (known.first { $0["in_use"] == true } ?? known.first)?["address"] ?? peer["address"]
        let more = known.count > 1 ? " (+\(known.count - 1))" : ""
        return Formatting.text(shown) + more
    }
}
