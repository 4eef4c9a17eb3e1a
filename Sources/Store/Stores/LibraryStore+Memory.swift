import Synchronization

/// Giving the page cache back once a store goes quiet.
///
/// Each connection may keep up to 16 MiB of pages (`Database`), which a sync, a start-up scan
/// or a gallery page fills; without this, a daemon that once worked through a large zone kept
/// that memory while idle for good.
extension LibraryStore {
    /// Frees the connection's unused cached pages when the store has not been used since the
    /// last call (and once only per quiet spell); true when it did. Called on a timer: the
    /// first call after some work only notes the count, the next one, if nothing happened in
    /// between, releases.
    public func releaseMemoryIfQuiet() -> Bool {
        let now = uses.load(ordering: .relaxed)
        let due = memoryWatch.withLock { watch -> Bool in
            defer { watch.seen = now }
            guard now == watch.seen, !watch.released else {
                if now != watch.seen { watch.released = false }
                return false
            }
            watch.released = true
            return true
        }
        guard due else { return false }
        // Not counted as a use: the next call must still see the store quiet.
        releaseCachedPages()
        return true
    }
}

/// What `releaseMemoryIfQuiet` saw last: the use count, and whether it released since the
/// count last moved.
struct MemoryWatch {
    var seen = -1
    var released = false
}
