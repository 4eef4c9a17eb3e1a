import FoundationEssentials
import Glibc
import Support

/// Measures how far a long copy has got, from outside the code doing it, so `photo add`
/// and `photo export` can report progress while the store copies.
///
/// A stopgap: the store's import and export take no progress callback yet. Reading the
/// kernel's view is exact and cheap (a handful of descriptors), and if a measurement fails
/// progress just shows fewer steps.
enum TransferProbe {
    /// How many bytes this process has read so far from an open descriptor on `path` (the
    /// largest offset if several are open), or nil when none is open.
    static func readOffset(of path: String) -> Int64? {
        guard let resolved = realpath(path, nil) else { return nil }
        let target = String(cString: resolved)
        free(resolved)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else {
            return nil
        }
        var best: Int64?
        for name in names where link("/proc/self/fd/" + name) == target {
            if let offset = position(fdinfo: "/proc/self/fdinfo/" + name) { best = max(best ?? 0, offset) }
        }
        return best
    }

    /// The size of the file at `path`, or nil when there is none.
    static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The `pos:` line of a `/proc/self/fdinfo/N` file.
    private static func position(fdinfo path: String) -> Int64? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("pos:") {
            return Int64(line.dropFirst(4).trimmingWhitespace())
        }
        return nil
    }
}
