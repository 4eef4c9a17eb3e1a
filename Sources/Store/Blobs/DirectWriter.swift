import CLinux
import Glibc

/// Writes the bulk of a large photo's data straight to the disk (`O_DIRECT`), past the page
/// cache, in aligned blocks gathered in one reused buffer.
///
/// Written through the page cache, every byte of a gigabyte arriving is first copied into
/// memory pages nobody reads soon, then written back by the kernel. On the bench machine (a
/// VM whose freed memory goes back to its host) a fresh page costs a fault in the host as
/// well: writing 1 GB took 0.25 to 2.5 s of system time depending on which pages it got,
/// and a 1 GB transfer's CPU went from 3.4–4.6 s to 2.5–3.2 s without them. Written
/// directly, the bytes are copied once into this buffer and the disk reads them from
/// there. The last partial block goes through the caller's ordinary descriptor (`finish`);
/// the file's sync at publish makes both durable. (Writing on a thread of its own while
/// the caller fills a second buffer was measured too: no faster, one more thread.)
final class DirectWriter {
    /// Offsets, lengths and the buffer's address are multiples of this: the largest logical
    /// block size of common disks (512 or 4096 bytes).
    static let alignment = 4096
    /// Bytes gathered per write: large enough that the disk's per-request cost is small.
    static let bufferSize = 1 << 20

    private let fd: Int32
    private let path: String
    private let buffer: UnsafeMutableRawPointer
    private var gathered = 0
    private var written = false
    /// Where the next block goes: everything before it is in the file.
    private(set) var offset: Int64

    /// Nil when `offset` is not aligned or the filesystem refuses `O_DIRECT` (tmpfs): the
    /// caller then writes through the page cache.
    init?(path: String, offset: Int64) {
        guard offset % Int64(Self.alignment) == 0 else { return nil }
        let fd = open(path, O_WRONLY | O_CLOEXEC | peershare_o_direct)
        guard fd >= 0 else { return nil }
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, Self.alignment, Self.bufferSize) == 0, let memory else {
            Glibc.close(fd)
            return nil
        }
        self.fd = fd
        self.path = path
        self.buffer = memory
        self.offset = offset
    }

    deinit {
        Glibc.close(fd)
        free(buffer)
    }

    /// What the first direct write failed with, and the bytes this writer still holds: the
    /// caller writes them through the page cache at `offset` and goes on without it.
    struct Refused: Error {
        let offset: Int64
        let pending: [UInt8]
    }

    /// Gathers `bytes`, writing every full buffer to the disk. Throws `Refused` when the
    /// filesystem refuses the first direct write (an alignment it does not support), a
    /// `StoreError` for any other failure (a full disk).
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        var taken = 0
        while taken < bytes.count {
            let count = min(Self.bufferSize - gathered, bytes.count - taken)
            (buffer + gathered).copyMemory(from: bytes.baseAddress! + taken, byteCount: count)
            gathered += count
            taken += count
            if gathered == Self.bufferSize {
                if try !writeGathered() {
                    throw Refused(
                        offset: offset,
                        pending: finish() + Array(UnsafeRawBufferPointer(rebasing: bytes[taken...])))
                }
            }
        }
    }

    /// The bytes gathered and not yet written (less than a buffer, the last partial block
    /// among them; a whole one after a failed write), for the caller to write through its
    /// own descriptor at `offset`.
    func finish() -> [UInt8] {
        let pending = Array(UnsafeRawBufferPointer(start: buffer, count: gathered))
        gathered = 0
        return pending
    }

    /// Writes the full buffer; false when the filesystem refused the first write whole.
    /// On a failure the buffer and `offset` stay as they were, so what `finish` hands back
    /// goes where it belongs (over whatever part of it did reach the file).
    private func writeGathered() throws -> Bool {
        var done = 0
        while done < gathered {
            let n = pwrite(fd, buffer + done, gathered - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EINVAL && done == 0 && !written { return false }
                throw StoreError.io(operation: "writing", path: path, reason: BlobStore.errorText())
            }
            done += n
        }
        offset += Int64(done)
        gathered = 0
        written = true
        return true
    }
}
