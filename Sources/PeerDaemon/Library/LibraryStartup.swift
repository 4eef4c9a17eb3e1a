import Foundation
import Glibc
import Store

/// Opens the person's library at `STATE_DIR/library` at start-up: both SQLite stores and
/// their blob directories, after throwing away what an interrupted run left half-written.
enum LibraryStartup {
    /// The library's directory inside the state directory.
    static func directory(stateDirectory: String) -> String { stateDirectory + "/library" }

    static func open(
        stateDirectory: String, localPeer: PeerID, limits: StoreLimits, logger: Logger
    ) throws(DaemonError) -> Library {
        let directory = directory(stateDirectory: stateDirectory)
        let library: Library
        do {
            library = try Library(directory: directory, localPeer: localPeer, limits: limits)
        } catch {
            throw .library(directory: directory, reason: "\(error)")
        }
        for store in library.stores {
            let removed = removeStaleTemporaryFiles(in: store.blobs.root + "/tmp")
            if removed > 0 {
                logger.info(
                    "removed photo data an interrupted run left half-written",
                    ["store": store.kind.rawValue, "files": "\(removed)"])
            }
        }
        return library
    }

    /// Deletes every file in a blob store's `tmp/`: nothing there is ever visible (a blob
    /// appears only by renaming out of it), and the state directory lock guarantees that no
    /// other daemon is writing there now. Returns how many files went.
    static func removeStaleTemporaryFiles(in directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        return names.filter { unlink(directory + "/" + $0) == 0 }.count
    }
}
