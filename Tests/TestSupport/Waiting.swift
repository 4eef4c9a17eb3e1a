import Glibc

/// Waits for `condition`, checking every 10 ms, up to `timeout`: tests never sleep a fixed
/// time. Throws a `HarnessError` naming `what` when time runs out, and whatever the
/// condition throws at once.
///
/// For blocking tests (daemons, CLIs, sockets); async tests use `eventually`.
public func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(20), _ condition: () throws -> Bool
) throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            throw HarnessError("timed out after \(timeout) waiting for \(what())")
        }
        usleep(10_000)
    }
}

/// Waits until `condition` holds, checking every 10 ms without blocking a thread; false
/// after `timeout`. An error the condition throws counts as "not yet" (a store busy, a
/// row not there).
public func eventually(
    timeout: Duration = .seconds(30), _ condition: @Sendable () throws -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if (try? condition()) == true { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return (try? condition()) == true
}
