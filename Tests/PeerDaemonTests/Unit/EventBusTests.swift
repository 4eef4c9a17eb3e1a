import ControlProtocol
import Support
import Testing

@testable import PeerDaemon

@Suite struct EventBusTests {
    @Test func subscribersReceiveEventsPublishedAfterTheySubscribed() {
        let bus = EventBus()
        bus.publish(ControlEvent(type: "before"))
        let subscription = bus.subscribe()
        bus.publish(ControlEvent(type: "a"))
        bus.publish(ControlEvent(type: "b"))
        let taken = subscription.take()
        #expect(taken.events.map(\.type) == ["a", "b"])
        #expect(!taken.overflowed)
        #expect(subscription.take().events.isEmpty)
    }

    @Test func theWakeDescriptorIsReadableExactlyWhileEventsWait() {
        let bus = EventBus()
        let subscription = bus.subscribe()
        #expect(Poll.readable([subscription.fd], timeout: .zero).isEmpty)
        bus.publish(ControlEvent(type: "a"))
        #expect(Poll.readable([subscription.fd], timeout: .zero) == [0])
        _ = subscription.take()
        #expect(Poll.readable([subscription.fd], timeout: .zero).isEmpty)
    }

    @Test func filtersAndCancellation() {
        let bus = EventBus()
        let history = bus.subscribe { $0.type.hasPrefix("history.") }
        let all = bus.subscribe()
        #expect(bus.subscriberCount == 2)
        bus.publish(ControlEvent(type: "history.committed"))
        bus.publish(ControlEvent(type: "daemon.reloaded"))
        #expect(history.take().events.map(\.type) == ["history.committed"])
        all.cancel()
        #expect(bus.subscriberCount == 1)
        bus.publish(ControlEvent(type: "x"))
        #expect(all.take().events.map(\.type) == ["history.committed", "daemon.reloaded"])
    }

    @Test func aSlowSubscriberOverflowsInsteadOfBlockingThePublisher() {
        let bus = EventBus()
        let subscription = bus.subscribe(capacity: 3)
        for index in 0..<10 { bus.publish(ControlEvent(type: "e\(index)")) }
        let taken = subscription.take()
        #expect(taken.events.map(\.type) == ["e0", "e1", "e2"])
        #expect(taken.overflowed)
    }
}
