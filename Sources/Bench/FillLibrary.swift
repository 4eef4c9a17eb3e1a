import Foundation
import Replication
import Store
import Thumbnails

/// `peershare-bench --fill-state=STATE --photos=N`: gives a daemon state directory an
/// identity and a library of N photos (one shared 1 KB blob, each with the same small
/// 320×240 JPEG thumbnail, so no thumbnail job is queued), through the Store API, so that
/// scripts/bench can measure `peershared` idle, and the gallery's first screen, with 100,000
/// photos. Prints seconds taken.
enum FillLibrary {
    static func run(state: String, photos: Int) throws {
        try FileManager.default.createDirectory(
            atPath: state + "/identity", withIntermediateDirectories: true)
        let identity = try PeerIdentity.loadOrCreate(directory: state + "/identity")
        let library = try Library(directory: state + "/library", localPeer: identity.peerID)
        defer { library.close() }
        let store = library.privateStore
        let data = try store.blobs.store([UInt8](repeating: 0xA5, count: 1024))
        let thumbnail = try SampleImage.make(width: 320, height: 240, sigma: 4)
        let seconds = try measure {
            for n in 0..<photos {
                _ = try store.addPhoto(name: "photo-\(n)", data: data, thumbnail: thumbnail)
            }
        }
        print(String(format: "filled %d photos in %.1f s", photos, seconds))
    }
}
