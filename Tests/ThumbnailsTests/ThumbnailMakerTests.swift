import Glibc
import TestSupport
import Testing
import Thumbnails

/// The previews the daemon makes: size, orientation, formats, and what is not an image.
@Suite struct ThumbnailMakerTests {
    /// Writes a sample image and returns the dimensions of its thumbnail.
    private func thumbnailSize(
        width: Int, height: Int, format: SampleImage.Format = .jpeg, orientation: Int? = nil
    ) throws -> (width: Int, height: Int) {
        let directory = try TestDirectory()
        let image = try SampleImage.make(
            width: width, height: height, format: format, orientation: orientation)
        let file = try directory.write("image", bytes: image)
        let thumbnail = try ThumbnailMaker().thumbnail(ofFile: file)
        // A JPEG: SOI marker first.
        #expect(thumbnail.starts(with: [0xFF, 0xD8]))
        return try #require(SampleImage.dimensions(of: thumbnail))
    }

    @Test func aLargeJPEGShrinksToALongestSideOf320() throws {
        let size = try thumbnailSize(width: 4000, height: 3000)
        #expect(size == (320, 240))
    }

    @Test func aLargeRotatedJPEGIsDecodedSmallAndTurnedUpright() throws {
        // Decoded at 1/8 (500×375), resized to 320×240, then turned: shown 240×320.
        let size = try thumbnailSize(width: 4000, height: 3000, orientation: 6)
        #expect(size == (240, 320))
    }

    @Test func aJPEGOfOddSizeFitsTheBoxExactly() throws {
        // 1/8 of 4001×2999 rounds up to 501×375; the resize still lands on 320 for the long side.
        let size = try thumbnailSize(width: 4001, height: 2999)
        #expect(size == (320, 240))
        let tall = try thumbnailSize(width: 1283, height: 2563)
        #expect(tall == (160, 320))
    }

    @Test func theEXIFOrientationTurnsTheThumbnailUpright() throws {
        // Stored 400×200, tagged "rotate 90° to show": shown 200×400, so 160×320.
        let size = try thumbnailSize(width: 400, height: 200, orientation: 6)
        #expect(size == (160, 320))
    }

    @Test(arguments: [SampleImage.Format.png, .webp, .tiff, .heic])
    func otherFormatsShrinkToo(format: SampleImage.Format) throws {
        let size = try thumbnailSize(width: 640, height: 1280, format: format)
        #expect(size == (160, 320))
    }

    /// libvips would load every plugin module at start; only HEIF's is (the formats of SPEC
    /// §14), so ImageMagick, poppler, OpenSlide and JPEG XL are never in the process.
    @Test func onlyTheHEIFPluginModuleIsLoaded() throws {
        _ = try ThumbnailMaker()
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk.prefix(count)
        }
        close(fd)
        let maps = String(decoding: bytes, as: UTF8.self)
        #expect(maps.contains("/vips-heif.so"))
        for module in ["vips-magick.so", "vips-poppler.so", "vips-openslide.so", "vips-jxl.so"] {
            #expect(!maps.contains("/" + module), "\(module) is loaded")
        }
    }

    @Test func aSmallImageIsNotEnlarged() throws {
        let size = try thumbnailSize(width: 100, height: 50)
        #expect(size == (100, 50))
    }

    @Test func aTextFileIsNotAnImage() throws {
        let directory = try TestDirectory()
        let file = try directory.write("notes.jpg", "shopping list: milk, eggs\n")
        #expect(throws: ThumbnailError.notAnImage(path: file, reason: "its content is none of these formats"))
        {
            try ThumbnailMaker().thumbnail(ofFile: file)
        }
        do {
            _ = try ThumbnailMaker().thumbnail(ofFile: file)
        } catch {
            #expect(
                error.description
                    == "\(file) is not an image a thumbnail can be made of (JPEG, PNG, WebP, TIFF or HEIC): "
                    + "its content is none of these formats; the photo is kept without a preview")
        }
    }

    @Test func formatsOutsideTheListAreNotImagesEither() throws {
        // libvips could render SVG (librsvg): a large parser the daemon keeps closed.
        let directory = try TestDirectory()
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>"#
        let file = try directory.write("drawing.svg", svg)
        #expect(throws: ThumbnailError.notAnImage(path: file, reason: "its content is none of these formats"))
        {
            try ThumbnailMaker().thumbnail(ofFile: file)
        }
    }

    @Test func aTruncatedJPEGIsNotAnImage() throws {
        let directory = try TestDirectory()
        let image = try SampleImage.make(width: 400, height: 300)
        let file = try directory.write("cut.jpg", bytes: Array(image.prefix(40)))
        #expect {
            try ThumbnailMaker().thumbnail(ofFile: file)
        } throws: { error in
            guard case .notAnImage(let path, _) = error as? ThumbnailError else { return false }
            return path == file
        }
    }

    @Test func aMissingFileIsUnreadable() throws {
        let directory = try TestDirectory()
        let file = directory.file("gone.jpg")
        #expect(throws: ThumbnailError.unreadable(path: file, reason: "No such file or directory")) {
            try ThumbnailMaker().thumbnail(ofFile: file)
        }
    }

    @Test func aSideOutsideTheRangeIsRefused() throws {
        #expect(throws: ThumbnailError.invalidSide(0)) {
            try ThumbnailMaker().thumbnail(ofFile: "/dev/null", longestSide: 0)
        }
    }
}
