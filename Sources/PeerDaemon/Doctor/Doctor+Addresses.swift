import Replication
import Support

/// Whether other members can dial this daemon, and whether those online did.
extension Doctor {
    static let advertiseFix =
        "set advertise = HOST:PORT in peershared.conf (or start peershared with --advertise HOST:PORT) "
        + "to an address the other members can dial, then restart peershared"

    /// The advertised addresses: never a wildcard, and not loopback only when a member is on
    /// another machine.
    static func addresses(_ facts: DoctorFacts) -> [DoctorFinding] {
        let check = "advertise"
        let shown = facts.advertised.map(\.description).joined(separator: ", ")
        if let wildcard = facts.advertised.first(where: { $0.isWildcard }) {
            return [
                .problem(
                    check,
                    "advertises \(wildcard), a wildcard address: it means \"this machine\" to whoever "
                        + "dials it, so no other peer can reach this daemon there", fix: advertiseFix)
            ]
        }
        if facts.advertised.isEmpty {
            let why =
                facts.listen.isWildcard
                ? "listens on \(facts.listen), a wildcard, and no network interface other than loopback is up"
                : "has no address to advertise"
            return [
                .problem(
                    check,
                    "advertises no address: peershared \(why); share URLs and device links cannot be made",
                    fix: advertiseFix)
            ]
        }
        guard facts.advertised.allSatisfy({ isLoopback($0.host) }) else {
            return [.ok(check, "advertises \(shown)")]
        }
        let remote = facts.peers.filter { isRemote($0, facts) }
        if !remote.isEmpty {
            let names = remote.map { "\($0.peer.short) at \(($0.address?.description) ?? "?")" }
            return [
                .problem(
                    check,
                    "advertises only loopback (\(shown)), but members are on other machines ("
                        + names.joined(separator: ", ") + "): they cannot dial this daemon", fix: advertiseFix
                )
            ]
        }
        if facts.peers.isEmpty {
            return [
                .warning(
                    check,
                    "advertises only loopback (\(shown)): only peers on this machine can dial this daemon",
                    fix: "before sharing with another machine, " + advertiseFix)
            ]
        }
        return [
            .ok(
                check,
                "advertises only loopback (\(shown)); every member with a known address is on this machine")
        ]
    }

    /// Reachability as the engine sees it: who dialed whom on each connection, and why a
    /// member is not connected.
    static func reachability(_ facts: DoctorFacts) -> [DoctorFinding] {
        let check = "reachability"
        guard !facts.peers.isEmpty else { return [.ok(check, "no members known: nothing to reach")] }
        return facts.peers.map { peer in
            let name = peer.peer.short
            if let used = peer.addresses.first(where: \.inUse), peer.connected {
                return .ok(check, "\(name): connected; this daemon reached it at \(used.address)")
            }
            if peer.connected { return .ok(check, "\(name): connected; it reached this daemon") }
            if peer.paused {
                return .ok(check, "\(name): paused here (`peershare resume` to replicate with it again)")
            }
            let last = peer.lastError.map { ": \($0)" } ?? ""
            let at = peer.address.map { " at \($0)" } ?? " (no address known)"
            return .warning(
                check, "\(name): not connected\(at)\(last)",
                fix:
                    "check that \(name)'s daemon runs and can be reached\(at) from here (and that it can reach "
                    + "this daemon's advertised address); `peershare sync` dials it again now")
        }
    }

    /// A member whose known address is neither loopback nor one of this machine's.
    private static func isRemote(_ peer: PeerStatus, _ facts: DoctorFacts) -> Bool {
        let hosts = ([peer.address].compactMap { $0 } + peer.addresses.map(\.address)).map(\.host)
        return hosts.contains { !isLoopback($0) && !facts.localHosts.contains($0) }
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
