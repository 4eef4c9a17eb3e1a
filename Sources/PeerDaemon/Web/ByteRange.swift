import FoundationEssentials
import Glibc
import Support

/// The one range of a `Range: bytes=…` header the gallery serves (a browser seeking in a
/// large photo, or resuming it), resolved against the file's size.
///
/// Only a single range is honoured; a list of ranges, another unit or a malformed header
/// gets the whole file, as RFC 9110 allows. A range that starts past the end is
/// unsatisfiable (416).
enum ByteRange: Equatable {
    /// Serve the whole file (no header, or one the server ignores).
    case whole
    /// Serve `length` bytes from `offset`.
    case part(offset: Int64, length: Int64)
    /// Nothing of the file is in the range asked for.
    case unsatisfiable

    init(header: String?, size: Int64) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingWhitespace()
        let sides = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard sides.count == 2 else {
            self = .whole
            return
        }
        let (first, last) = (Int64(sides[0]), Int64(sides[1]))
        switch (sides[0].isEmpty, sides[1].isEmpty) {
        case (true, false):
            // The last N bytes.
            guard let count = last, count > 0 else {
                self = last == 0 ? .unsatisfiable : .whole
                return
            }
            let length = min(count, size)
            self = length == 0 ? .unsatisfiable : .part(offset: size - length, length: length)
        case (false, _):
            guard let start = first, start >= 0 else {
                self = .whole
                return
            }
            guard start < size else {
                self = .unsatisfiable
                return
            }
            let end = sides[1].isEmpty ? size - 1 : min(last ?? -1, size - 1)
            guard end >= start else {
                self = last == nil ? .whole : .unsatisfiable
                return
            }
            self = .part(offset: start, length: end - start + 1)
        case (true, true):
            self = .whole
        }
    }
}
