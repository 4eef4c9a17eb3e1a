import FoundationEssentials
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
        let swept = library.sweptAtStart
        if swept.blobs + swept.temporaries > 0 {
            logger.info(
                "removed photo data and temporary files that no photo refers to",
                ["data": "\(swept.blobs)", "temporary": "\(swept.temporaries)"])
        }
        return library
    }
}
