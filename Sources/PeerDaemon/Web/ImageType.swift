/// The media type of a photo's or thumbnail's bytes, read from their first bytes: the
/// gallery serves what peers sent, and no file name or peer's word says what it is.
enum ImageType {
    static let fallback = "application/octet-stream"

    /// The type of a file starting with `head` (its first 16 bytes or fewer).
    static func of(_ head: [UInt8]) -> String {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
        if starts(Array("ftyp".utf8), at: 4) {
            let brand = head.count >= 12 ? String(decoding: head[8..<12], as: UTF8.self) : ""
            if ["heic", "heix", "mif1", "msf1", "hevc"].contains(brand) { return "image/heic" }
            if brand == "avif" { return "image/avif" }
        }
        return fallback
    }
}
