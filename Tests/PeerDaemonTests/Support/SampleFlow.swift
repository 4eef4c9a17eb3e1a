import TestSupport

/// The sample's sharing flow between three daemons, step by step, for the tests of its
/// later steps: each starts from the state the earlier steps leave, set up here without
/// checking more than that each command worked, so that a failing step does not hide the
/// ones after it.
///
/// After `init`: alice owns the share "Holidays" of `beach.jpg` (tagged "summer"), bob takes
/// part read-write and carol read-only, and everyone is in sync.
struct SampleFlow {
    let peers: SharingPeers
    let share: String
    let url: String
    let beach: String
    /// The data of `city.jpg`, once `addCity` has added it.
    let city = randomBytes(3000)

    var alice: SharingPeer { peers.alice }
    var bob: SharingPeer { peers.bob }
    var carol: SharingPeer { peers.carol }

    init() throws {
        peers = try SharingPeers()
        let shared = try peers.shareBeach(size: 5000)
        (share, url, beach) = (shared.share, shared.url, shared.photo)
    }

    /// Both sides tag `beach.jpg`: alice "sea", bob "sunset"; everyone in sync.
    func tagBothSides() throws {
        _ = try alice.json("tag", "add", beach, "sea")
        _ = try bob.json("tag", "add", beach, "sunset")
        try peers.settle()
    }

    /// Alice adds `city.jpg` tagged "summer" and "night" into the share; everyone in sync.
    /// Returns its ID.
    func addCity() throws -> String {
        let photo = try alice.addPhoto("city.jpg", bytes: city, tags: ["summer", "night"])
        _ = try alice.json("share", "add", photo, share)
        try peers.settle()
        return photo
    }
}
