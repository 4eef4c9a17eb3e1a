import CLinux
import Glibc

/// The physical limit of the initial sync's disk side: `count` files of `size` bytes created,
/// written and renamed in `directory`, then one filesystem sync — what storing the photos
/// costs without any network, hashing or database. Measured after PeerShare's run, in the
/// same directory, so both see the same filesystem state (on ext4 without a journal, file
/// creation slows down where many files were deleted in the last minutes).
struct FileWriteLimit {
    let directory: String
    let count: Int
    let size: Int

    func seconds() throws -> Double {
        let root = directory + "/file-write-limit"
        mkdir(root, 0o700)
        mkdir(root + "/tmp", 0o700)
        var bytes = [UInt8](repeating: 0x5A, count: size)
        let elapsed = measure {
            for n in 0..<count {
                bytes.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(n), as: UInt64.self) }
                let temp = "\(root)/tmp/\(n).partial"
                let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                rename(temp, "\(root)/\(n)")
            }
            let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            syncfs(fd)
            close(fd)
        }
        return elapsed
    }
}
