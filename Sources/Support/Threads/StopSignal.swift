import Synchronization

/// A one-shot "stop now" that blocking threads can wait on with `poll`.
///
/// A pipe whose read end becomes readable, and stays readable, once fired: every thread
/// polling it wakes, whenever it polls. Threads blocked in `poll` on a socket add this
/// descriptor instead of being interrupted by signals or closed descriptors.
public final class StopSignal: Sendable {
    private let pipe = WakePipe()
    private let fired = Mutex(false)

    public init() {}

    /// Readable once fired.
    public var fd: Int32 { pipe.fd }

    public var isFired: Bool { fired.withLock { $0 } }

    /// Fires once; later calls do nothing. True for the call that fired it.
    @discardableResult
    public func fire() -> Bool {
        let first = fired.withLock { done in
            defer { done = true }
            return !done
        }
        if first { pipe.wake() }
        return first
    }

    /// Sleeps until fired or `timeout` has passed; true when fired.
    public func wait(timeout: Duration) -> Bool {
        !Poll.readable([fd], timeout: timeout).isEmpty
    }
}
