/// Why the engine closes a connection at its hello (a duplicate, a paused or no longer
/// admitted peer), and what the peer is told before the reason.
///
/// A refused peer learns nothing the session would have sent an accepted one (this side's
/// addresses, its person's device list, its zones): only `told`, which is empty but for a
/// device this person removed, shown the list that removes it so that it purges its copy
/// (docs/design/DEVICES.md, *Removal*).
struct ConnectionRefusal {
    let code: CloseCode
    let reason: String
    var told: [Frame] = []
}
