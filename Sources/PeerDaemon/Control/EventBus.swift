import ControlProtocol
import Support
import Synchronization

/// The daemon's in-process publish/subscribe hub for `watch`.
///
/// Anything in the daemon publishes (`bus.publish(ControlEvent(type: "daemon.reloaded",
/// data: …))`); every `watch` connection holds a subscription. Publishing never blocks: each
/// subscriber has a bounded queue, and one that falls too far behind is marked overflowed
/// and dropped by its connection, instead of slowing the publisher.
final class EventBus: Sendable {
    private struct State {
        var nextID = 0
        var subscribers: [Int: EventSubscription] = [:]
    }

    private let state = Mutex(State())

    /// Hands `event` to every current subscriber whose filter accepts it. The event is made
    /// only when someone subscribes: a joiner's commits would otherwise turn every change of
    /// a 100,000-photo zone into JSON for nobody (a twentieth of its store thread).
    func publish(_ event: @autoclosure () -> ControlEvent) {
        guard state.withLock({ !$0.subscribers.isEmpty }) else { return }
        let event = event()
        state.withLock { state in
            for subscriber in state.subscribers.values { subscriber.deliver(event) }
        }
    }

    /// A new subscription receiving events published from now on; `accepts` filters them.
    func subscribe(
        capacity: Int = 4096, accepts: @escaping @Sendable (ControlEvent) -> Bool = { _ in true }
    ) -> EventSubscription {
        state.withLock { state in
            state.nextID += 1
            let subscription = EventSubscription(
                id: state.nextID, bus: self, capacity: capacity, accepts: accepts)
            state.subscribers[state.nextID] = subscription
            return subscription
        }
    }

    /// How many subscriptions are open (`status` reports it as `watchers`).
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    fileprivate func remove(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }
}

/// One subscriber's queue of events, with a descriptor that is readable while it is
/// non-empty so the subscriber's thread can `poll` on it next to its socket.
final class EventSubscription: Sendable {
    private struct Queue {
        var events: [ControlEvent] = []
        var overflowed = false
    }

    let id: Int
    private let bus: EventBus
    private let capacity: Int
    private let accepts: @Sendable (ControlEvent) -> Bool
    private let queue = Mutex(Queue())
    private let pipe = WakePipe()

    fileprivate init(
        id: Int, bus: EventBus, capacity: Int, accepts: @escaping @Sendable (ControlEvent) -> Bool
    ) {
        self.id = id
        self.bus = bus
        self.capacity = capacity
        self.accepts = accepts
    }

    /// Readable while events wait.
    var fd: Int32 { pipe.fd }

    fileprivate func deliver(_ event: ControlEvent) {
        guard accepts(event) else { return }
        let wasEmpty = queue.withLock { queue in
            let wasEmpty = queue.events.isEmpty
            if queue.events.count < capacity {
                queue.events.append(event)
            } else {
                queue.overflowed = true
            }
            return wasEmpty
        }
        if wasEmpty { pipe.wake() }
    }

    /// Takes every waiting event; `overflowed` is true when some were lost.
    func take() -> (events: [ControlEvent], overflowed: Bool) {
        queue.withLock { queue in
            pipe.drain()
            let taken = (queue.events, queue.overflowed)
            queue.events = []
            return taken
        }
    }

    /// Stops delivery; the subscription receives nothing more.
    func cancel() {
        bus.remove(id)
    }
}
