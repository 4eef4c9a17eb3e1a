import ControlProtocol
import FoundationEssentials
import Glibc
import Store
import Support

/// Writes a backup of the running daemon into a new or empty directory: the library (see
/// `Library.backup`), the identity's key and certificate, then `manifest.json`. Files are
/// 0600 and directories 0700, as in a state directory, and a backup has the state
/// directory's layout (`identity/`, `library/`).
struct BackupWriter {
    let library: Library
    /// `STATE_DIR/identity`.
    let identityDirectory: String
    let peerID: String

    /// The identity files a backup takes, by name in `identity/`.
    static let identityFiles = ["identity.key", "identity.crt"]

    /// Makes `directory` (or takes it when empty) and writes the backup; `copied` is told
    /// each chunk of photo data copied.
    func write(into directory: String, copied: (Int) -> Void) throws -> BackupManifest {
        try Self.prepare(directory)
        let contents = try library.backup(into: directory + "/library", copied: copied)
        var files = contents.stores.map {
            BackupManifest.File(
                path: "library/" + $0.file, sha256: $0.sha256, size: $0.size, photos: $0.photos)
        }
        try VerifiedCopy.makeDirectory(directory + "/identity")
        for name in Self.identityFiles {
            let copy = try VerifiedCopy.copy(
                identityDirectory + "/" + name, to: directory + "/identity/" + name)
            files.append(BackupManifest.File(path: "identity/" + name, sha256: copy.sha256, size: copy.size))
        }
        let invite = "library/" + Library.inviteKeyFile
        var inviteInfo = stat()
        stat(directory + "/" + invite, &inviteInfo)
        files.append(
            BackupManifest.File(
                path: invite, sha256: try BlobStore.digest(ofFile: directory + "/" + invite, limit: .max),
                size: Int64(inviteInfo.st_size)))
        let manifest = BackupManifest(
            createdAt: Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            peerID: peerID, peershareVersion: PeerShareVersion.string, files: files,
            data: BackupManifest.Data(
                files: contents.dataFiles, bytes: contents.dataBytes, pending: contents.pendingData))
        // Everything else is on disk before the manifest says the backup is whole.
        try VerifiedCopy.syncFileSystem(of: directory)
        try Self.writeFile(try manifest.encoded(), to: directory + "/" + BackupManifest.fileName)
        try VerifiedCopy.syncFileSystem(of: directory)
        return manifest
    }

    /// A new directory (its parent must exist), or an existing empty one, made 0700.
    static func prepare(_ directory: String) throws {
        if mkdir(directory, 0o700) == 0 { return }
        let reason = String(cString: strerror(errno))
        var info = stat()
        guard errno == EEXIST, stat(directory, &info) == 0 else {
            throw BackupError.targetUnusable(directory, reason: reason)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw BackupError.targetUnusable(directory, reason: "it is not a directory")
        }
        guard DirectoryEntries.names(of: directory).isEmpty else {
            throw BackupError.targetNotEmpty(directory)
        }
        guard chmod(directory, 0o700) == 0 else {
            throw BackupError.targetUnusable(directory, reason: String(cString: strerror(errno)))
        }
    }

    static func writeFile(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw BackupError.targetUnusable(path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw BackupError.targetUnusable(path, reason: String(cString: strerror(errno)))
            }
            offset += n
        }
    }
}
