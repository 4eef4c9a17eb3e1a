import ControlProtocol

/// `watch`: streams the event bus to the client, one event per line, until it leaves.
extension ControlRoutes {
    mutating func registerWatch(_ services: DaemonServices) {
        registerStream(.watch) { args, stream in
            let types = try args.strings("types")
            // Subscribed before the acknowledgement: once a client has read it, no event
            // published afterwards can be missed.
            let subscription = services.bus.subscribe { event in
                types.isEmpty || types.contains { event.type == $0 || event.type.hasPrefix($0 + ".") }
            }
            defer { subscription.cancel() }
            try stream.acknowledge(["watching": true, "types": .array(types.map(JSON.string))])
            while stream.wait(for: subscription.fd) {
                let (events, overflowed) = subscription.take()
                for event in events { try stream.send(event) }
                if overflowed {
                    try stream.fail(
                        ControlError(
                            .eventsDropped,
                            "watch: events were dropped because this client read too slowly; "
                                + "reconnect, and catch up with 'history --since'"))
                    return
                }
            }
        }
    }
}
