import Glibc
import Store

/// A photo's thumbnail and full data as the gallery serves them: the type read from the
/// bytes, the data straight from its file with byte ranges.
enum WebPhotoFiles {
    static func thumbnail(_ id: String, in library: Library) -> WebResponse {
        // One read of the thumbnail column per store (a live photo's, nil otherwise): the first
        // screen asks for a hundred of these at once.
        guard let bytes = library.stores.lazy.compactMap({ try? $0.thumbnail(ofPhoto: id) }).first,
            !bytes.isEmpty
        else {
            return .text("no thumbnail for photo \(id)\n", status: 404)
        }
        return .content(bytes, type: ImageType.of(Array(bytes.prefix(16))), cache: "private, max-age=86400")
    }

    static func data(_ id: String, range: String?, in library: Library) -> WebResponse {
        guard
            let (store, photo) = library.stores.lazy.compactMap({ store in
                (try? store.photo(id)).flatMap { $0 }.map { (store, $0) }
            }).first
        else {
            return .text("no photo \(id)\n", status: 404)
        }
        guard !photo.pending else {
            return .text("photo \(id) has not arrived from its peers yet\n", status: 404)
        }
        let fd = open(store.blobs.path(for: photo.sha256), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .text("photo \(id) cannot be read\n", status: 404) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            return .text("photo \(id) cannot be read\n", status: 500)
        }
        let size = Int64(info.st_size)
        var head = [UInt8](repeating: 0, count: 16)
        let read = pread(fd, &head, head.count, 0)
        let type = ImageType.of(Array(head.prefix(max(read, 0))))
        var headers = [
            ("Content-Type", type), ("Accept-Ranges", "bytes"), ("Cache-Control", "private, max-age=86400"),
        ]
        switch ByteRange(header: range, size: size) {
        case .whole:
            return WebResponse(status: 200, headers: headers, body: .file(fd: fd, offset: 0, length: size))
        case .part(let offset, let length):
            headers.append(("Content-Range", "bytes \(offset)-\(offset + length - 1)/\(size)"))
            return WebResponse(
                status: 206, headers: headers, body: .file(fd: fd, offset: offset, length: length))
        case .unsatisfiable:
            close(fd)
            return WebResponse(status: 416, headers: [("Content-Range", "bytes */\(size)")])
        }
    }
}
