import Synchronization

/// Whether the web gallery runs, and how to get in: what `peershare ui` asks the daemon.
///
/// The gallery is not the daemon's main job: when its port is taken it does not run, the
/// daemon syncs on, and `ui` says why instead of handing out a URL that leads nowhere.
final class GalleryAccess: Sendable {
    enum Status: Sendable {
        /// `web_listen = off`.
        case off
        case failed(String)
        case running(WebGate)
    }

    private let status: Mutex<Status>

    init(_ status: Status) {
        self.status = Mutex(status)
    }

    var current: Status { status.withLock { $0 } }

    func set(_ new: Status) {
        status.withLock { $0 = new }
    }
}
