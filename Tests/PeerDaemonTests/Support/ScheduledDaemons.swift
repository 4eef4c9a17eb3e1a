import TestSupport

/// The daemons of a random schedule and what the schedule did to them: which run, the logs
/// of their earlier runs, and the steps taken, for the schedule's report.
struct ScheduledDaemons {
    let peers: [SharingPeer]
    private(set) var running: [Bool]
    private var earlierLogs: [String]
    /// What the schedule did, step by step, as a person reads it.
    var steps: [String] = []

    init(_ peers: [SharingPeer]) {
        self.peers = peers
        running = Array(repeating: true, count: peers.count)
        earlierLogs = Array(repeating: "", count: peers.count)
    }

    /// Stops daemon `which`: half the time by SIGKILL, as a crash or a power cut does, so
    /// that whatever it was telling a peer is cut off and told again once it starts.
    mutating func stop(_ which: Int, random: inout SeededRandom) throws {
        let killed = random.next() % 2 == 0
        if killed { try peers[which].kill() } else { try peers[which].stop() }
        earlierLogs[which] += peers[which].log
        running[which] = false
        steps.append("\(killed ? "kill" : "stop") \(peers[which].name)")
    }

    /// Starts daemon `which` again, on its address.
    mutating func start(_ which: Int) throws {
        try peers[which].start(sameAddress: true)
        running[which] = true
        steps.append("start \(peers[which].name)")
    }

    /// Starts every daemon the schedule left stopped.
    mutating func startAll() throws {
        for which in peers.indices where !running[which] {
            try peers[which].start(sameAddress: true)
            running[which] = true
        }
    }

    /// The schedule as a failure shows it: the seed, the steps and the devices.
    func schedule(replay: String) -> String {
        let names = peers.map { "\($0.name) \($0.id.prefix(15))" }.joined(separator: ", ")
        return "\(replay); schedule: \(steps.joined(separator: "; ")) (devices: \(names))"
    }

    /// Every daemon's log, its earlier runs' first.
    var logs: String {
        peers.indices.map { "--- \(peers[$0].name)'s log:\n\(earlierLogs[$0])\(peers[$0].log)" }
            .joined(separator: "\n")
    }
}
