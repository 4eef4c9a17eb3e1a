import CLinux

/// Giving memory back after a burst of incoming connections.
extension ReplicationEngine {
    /// Connections counted at once (handshakes and guests) that make a burst worth trimming.
    static let trimBurst = 16

    /// Once a burst of incoming connections (a flood, say) has been over for two ticks, hands
    /// the allocator's free pages back to the system: without it, the memory of hundreds of
    /// short-lived connections and their threads stays in the process for good.
    func releaseMemoryAfterBurst() {
        let due = state.withLock { $0.inbound.trimDue(burst: Self.trimBurst, quietChecks: 2) }
        guard due else { return }
        _ = malloc_trim(0)
        logger.log(.debug, "returned free memory to the system after a burst of incoming connections")
    }
}
