import CLinux

/// Giving memory back after a burst of incoming connections, and once the stores go quiet.
extension ReplicationEngine {
    /// Connections counted at once (handshakes and guests) that make a burst worth trimming.
    static let trimBurst = 16

    /// Called every tick. Once a burst of incoming connections (a flood, say) has been over
    /// for two ticks, or a store has not been used for a whole tick after some work (a sync,
    /// the start-up scan, a gallery page), hands the stores' cached pages and the allocator's
    /// free pages back to the system: without it, the memory of hundreds of short-lived
    /// connections and their threads, or of a large sync, stays in the process for good.
    func releaseMemoryWhenQuiet() {
        let burstOver = state.withLock { $0.inbound.trimDue(burst: Self.trimBurst, quietChecks: 2) }
        var storesReleased = false
        for store in [library.privateStore, library.sharedStore] where store.releaseMemoryIfQuiet() {
            storesReleased = true
        }
        guard burstOver || storesReleased else { return }
        _ = malloc_trim(0)
        logger.log(
            .debug,
            burstOver
                ? "returned free memory to the system after a burst of incoming connections"
                : "returned the stores' cached pages and free memory to the system after a quiet second")
    }
}
