/// Why a peer identity could not be loaded or created.
///
/// Each case names the file involved and says what to do next; none ever carries key
/// material, because these messages end up in logs and terminals.
public enum IdentityError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The identity directory could not be created or is not a directory.
    case directoryUnusable(path: String, reason: String)
    /// A file could not be read.
    case unreadable(path: String, reason: String)
    /// A file could not be written (disk full, read-only file system, permissions…).
    case unwritable(path: String, reason: String)
    /// One of the two identity files exists without the other.
    case incomplete(present: String, missing: String)
    /// The key file is readable by other users.
    case keyFileTooOpen(path: String, mode: UInt32)
    /// The key file is not a PEM private key OpenSSL can read.
    case corruptKey(path: String, detail: String)
    /// The certificate file is not a PEM X.509 certificate OpenSSL can read.
    case corruptCertificate(path: String, detail: String)
    /// The key is readable but is not Ed25519.
    case wrongKeyType(path: String)
    /// The certificate was not made for this key.
    case keyDoesNotMatchCertificate(keyPath: String, certificatePath: String)
    /// OpenSSL failed while generating a new key or certificate.
    case generationFailed(step: String, detail: String)

    public var description: String {
        switch self {
        case .directoryUnusable(let path, let reason):
            return "cannot use identity directory \(path): \(reason); "
                + "check that the state directory is writable by this user"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason); check its owner and permissions"
        case .unwritable(let path, let reason):
            return "cannot write \(path): \(reason); check free disk space and permissions"
        case .incomplete(let present, let missing):
            return "found \(present) but not \(missing): restore the missing file from a backup, "
                + "or remove \(present) to create a new identity (peers will then see a new peer ID)"
        case .keyFileTooOpen(let path, let mode):
            return "private key \(path) is accessible by other users (mode "
                + String(mode & 0o777, radix: 8) + "): run `chmod 600 \(path)`"
        case .corruptKey(let path, let detail):
            return "private key \(path) is damaged or not a PEM private key (\(detail)); "
                + "restore it from a backup, or remove it and its certificate to create a new identity"
        case .corruptCertificate(let path, let detail):
            return "certificate \(path) is damaged or not a PEM certificate (\(detail)); "
                + "restore it from a backup, or remove it and its key to create a new identity"
        case .wrongKeyType(let path):
            return "private key \(path) is not an Ed25519 key; "
                + "remove it and its certificate to create a new identity"
        case .keyDoesNotMatchCertificate(let keyPath, let certificatePath):
            return "certificate \(certificatePath) does not belong to private key \(keyPath); "
                + "restore the matching pair from a backup, or remove both to create a new identity"
        case .generationFailed(let step, let detail):
            return "could not create a new identity (\(step) failed: \(detail))"
        }
    }
}
