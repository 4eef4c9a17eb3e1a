import ControlProtocol
import Foundation
import Store
import Support

/// `count` random bytes: photo data no two tests share.
public func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8](repeating: 0, count: count)
    // Eight bytes per call: fast enough for megabytes in a debug build.
    bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < count {
            var word = generator.next()
            let take = min(8, count - offset)
            withUnsafeBytes(of: &word) {
                buffer.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: take)
            }
            offset += take
        }
    }
    return bytes
}

/// `count` bytes that are the same for the same `seed`: data a test can name again.
public func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
        withUnsafeBytes(of: rng.next()) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
    }
    return bytes
}

/// The lowercase hex SHA-256 the store names photo data by.
public func sha256Hex(_ bytes: [UInt8]) -> String {
    SHA256Hasher.hex(SHA256Hasher.digest(bytes))
}

/// The bytes of a file.
public func contents(of path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// The names in a directory (empty when it does not exist).
public func entries(of directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

/// The regular files under a directory, as paths relative to it, sorted.
public func files(under directory: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
    var found: [String] = []
    while let path = walker.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            found.append(path)
        }
    }
    return found.sorted()
}

extension JSON {
    /// The element at `index` of an array, or nil.
    public subscript(index: Int) -> JSON? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
