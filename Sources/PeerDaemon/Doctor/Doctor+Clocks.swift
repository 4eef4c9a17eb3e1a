import Replication
import Store

/// Clock skew against the members, as far as this library can see it.
///
/// The protocol carries no peer's current clock (the hello has none), so nothing here can
/// tell a clock *behind* this one. What it can see: the newest stamp of a member's own
/// changes (its entry in a shared zone's vector clock) is a reading of the member's
/// clock taken before it reached here; if that reading is later than this clock's now, the
/// member's clock is ahead by at least the difference. Changes stamped more than
/// `max_clock_ahead_seconds` ahead are refused by the stores.
extension Doctor {
    static func clocks(_ facts: DoctorFacts) -> [DoctorFinding] {
        let check = "clock"
        let unseen =
            "a clock behind this one cannot be seen (peers do not send their clocks; only the stamps of their "
            + "changes, which show a clock ahead)"
        let stamped = facts.peers.compactMap { peer -> (PeerStatus, UInt64)? in
            guard let newest = facts.newestStamps[peer.peer], newest > 0 else { return nil }
            return (peer, HybridLogicalClock.physical(of: newest))
        }
        guard !stamped.isEmpty else {
            return [.ok(check, "skew unknown: no member's changes are held here yet; \(unseen)")]
        }
        var findings: [DoctorFinding] = []
        for (peer, wall) in stamped where wall > facts.nowMilliseconds + 1000 {
            let ahead = wall - facts.nowMilliseconds
            let message =
                "\(peer.peer.short)'s newest change is stamped \(describe(milliseconds: ahead)) after this "
                + "machine's clock reads now: its clock (or one whose changes it took) is at least that far ahead"
            let fix =
                "set the clocks of both machines right (NTP: `timedatectl set-ntp true`); changes stamped "
                + "further ahead than max_clock_ahead_seconds are refused"
            findings.append(
                ahead > facts.maxClockAheadMilliseconds
                    ? .problem(check, message, fix: fix) : .warning(check, message, fix: fix))
        }
        guard findings.isEmpty else { return findings }
        let names = stamped.map(\.0.peer.short).joined(separator: ", ")
        return [.ok(check, "no member's changes are stamped ahead of this clock (\(names)); \(unseen)")]
    }
}
