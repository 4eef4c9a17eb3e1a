import FoundationEssentials
import Glibc
import Replication
import Store
import Support

/// `peershared --restore DIR`: puts a backup back into a new or empty state directory,
/// checking it against its manifest as it copies, so a damaged or partial backup is refused
/// and leaves the state directory as it found it.
struct BackupRestore {
    let backup: String
    let stateDirectory: String

    /// What was restored, for the message printed at the end.
    struct Result {
        let manifest: BackupManifest
        let photos: Int
    }

    func run() throws -> Result {
        let manifest = try readManifest()
        try requireEmptyState()
        do {
            try copy(manifest)
            try checkIdentity(manifest)
            try VerifiedCopy.syncFileSystem(of: stateDirectory)
        } catch {
            // Leave the state directory as it was: empty.
            for name in DirectoryEntries.names(of: stateDirectory) {
                Self.removeTree(stateDirectory + "/" + name)
            }
            if let error = error as? BackupError { throw error }
            throw BackupError.invalidBackup(backup, reason: "\(error)")
        }
        return Result(manifest: manifest, photos: manifest.files.compactMap(\.photos).reduce(0, +))
    }

    private func readManifest() throws -> BackupManifest {
        let path = backup + "/" + BackupManifest.fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BackupError.invalidBackup(
                backup,
                reason: "it has no \(BackupManifest.fileName) (not a backup, or one that was cut short)")
        }
        let manifest: BackupManifest
        do {
            manifest = try BackupManifest.decode(Array(data))
        } catch {
            throw BackupError.invalidBackup(
                backup, reason: "\(BackupManifest.fileName) cannot be read (\(error))")
        }
        guard manifest.format == BackupManifest.formatName, manifest.version <= BackupManifest.currentVersion
        else {
            throw BackupError.invalidBackup(
                backup,
                reason: "it is \(manifest.format) version \(manifest.version), this peershared reads "
                    + "\(BackupManifest.formatName) up to version \(BackupManifest.currentVersion)")
        }
        let needed =
            [
                "library/" + Library.storeFile(.private), "library/" + Library.storeFile(.shared),
            ] + BackupWriter.identityFiles.map { "identity/" + $0 }
        for path in needed where !manifest.files.contains(where: { $0.path == path }) {
            throw BackupError.invalidBackup(backup, reason: "its manifest lacks \(path)")
        }
        for file in manifest.files where file.path.contains("..") || file.path.hasPrefix("/") {
            throw BackupError.invalidBackup(
                backup, reason: "its manifest names \(file.path), outside the backup")
        }
        return manifest
    }

    private func requireEmptyState() throws {
        if mkdir(stateDirectory, 0o700) == 0 { return }
        var info = stat()
        guard errno == EEXIST, stat(stateDirectory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw BackupError.targetUnusable(
                stateDirectory, reason: "it cannot be made, or is not a directory")
        }
        guard DirectoryEntries.names(of: stateDirectory).isEmpty else {
            throw BackupError.stateNotEmpty(stateDirectory)
        }
        chmod(stateDirectory, 0o700)
    }

    /// Every file the manifest names, each checked against its SHA-256, then the photo data,
    /// each checked against the hash it is named by and counted against the manifest.
    private func copy(_ manifest: BackupManifest) throws {
        for directory in ["identity", "library", "library/blobs"] {
            try VerifiedCopy.makeDirectory(stateDirectory + "/" + directory)
        }
        for file in manifest.files {
            let copy = try VerifiedCopy.copy(
                backup + "/" + file.path, to: stateDirectory + "/" + file.path, expected: file.sha256)
            guard copy.size == file.size else {
                throw BackupError.invalidBackup(
                    backup, reason: "\(file.path) has \(copy.size) bytes, not \(file.size)")
            }
        }
        var files = 0
        var bytes: Int64 = 0
        for kind in StoreKind.allCases {
            let from = backup + "/library/" + Library.dataDirectory(kind)
            let to = stateDirectory + "/library/" + Library.dataDirectory(kind)
            try VerifiedCopy.makeDirectory(to)
            for bucket in DirectoryEntries.names(of: from) {
                try VerifiedCopy.makeDirectory(to + "/" + bucket)
                for hash in DirectoryEntries.names(of: from + "/" + bucket) {
                    guard hash.hasPrefix(bucket), hash.utf8.count == 64 else {
                        throw BackupError.invalidBackup(
                            backup, reason: "\(from)/\(bucket)/\(hash) is not photo data")
                    }
                    let copy = try VerifiedCopy.copy(
                        from + "/" + bucket + "/" + hash, to: to + "/" + bucket + "/" + hash, expected: hash)
                    files += 1
                    bytes += copy.size
                }
            }
        }
        guard files == manifest.data.files, bytes == manifest.data.bytes else {
            throw BackupError.invalidBackup(
                backup,
                reason: "it holds \(files) photo data files of \(bytes) bytes, its manifest says "
                    + "\(manifest.data.files) of \(manifest.data.bytes)")
        }
    }

    /// The restored key and certificate load, and are the device the manifest names.
    private func checkIdentity(_ manifest: BackupManifest) throws {
        let identity = try PeerIdentity.loadOrCreate(directory: stateDirectory + "/identity")
        guard identity.peerID.description == manifest.peerID else {
            throw BackupError.invalidBackup(
                backup, reason: "its identity is \(identity.peerID), its manifest says \(manifest.peerID)")
        }
    }

    private static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in DirectoryEntries.names(of: path) { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
