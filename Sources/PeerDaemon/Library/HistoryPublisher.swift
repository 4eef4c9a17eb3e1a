import ControlProtocol
import Store

/// Puts every committed transaction of both stores on the event bus, as `history` events
/// that `watch` streams, whoever made it (a command, a peer's sync, dedup, a purge).
enum HistoryPublisher {
    /// The event type `watch --type history` selects.
    static let eventType = "history"

    /// Registers the observers; they run on the committing thread, after the commit.
    static func publish(_ library: Library, on bus: EventBus) {
        for store in library.stores {
            store.observe { entry in bus.publish(ControlEvent(type: eventType, data: entry.json)) }
        }
    }
}
