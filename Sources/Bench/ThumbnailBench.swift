import Foundation
import Support
import Thumbnails

/// `thumbnails` (SPEC §14): how many 320-pixel previews `ThumbnailMaker` makes per second of
/// 4000×3000 JPEGs on one thread, as the daemon's one worker does.
///
/// The samples are noise around mid-grey, about the size of a 12-megapixel camera photo
/// (their size is a figure too): shrink-on-load decodes a JPEG at 1/8 scale, but its entropy
/// decoding still reads every byte, so the time follows the compressed size and these cost
/// what photos of that size cost. That decoding alone, timed on the same files, is the floor. Made once per process, outside the
/// timing, and shared by the runs.
struct ThumbnailBench {
    let samples: String
    static let count = 20

    func run() throws -> [BenchResult] {
        let files = try makeSamples()
        let maker = try ThumbnailMaker()
        _ = try maker.thumbnail(ofFile: files[0])  // libvips' first-use set-up, not a thumbnail's cost
        var bytes = 0
        let cpuStart = processCPUSeconds()
        let seconds = try measure {
            for file in files { bytes += try maker.thumbnail(ofFile: file).count }
        }
        let cpu = processCPUSeconds() - cpuStart
        precondition(bytes > 0)
        // The floor: the same files only decoded at 1/8 scale, nothing made of them.
        var means = 0.0
        let floorSeconds = try measure {
            for file in files { means += try SampleImage.decodeAtEighthScale(file) }
        }
        precondition(means > 0)
        let sampleBytes = try files.reduce(0) {
            $0 + ((try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0)
        }
        return [
            try throughThumbnailer(files),
            BenchResult(
                name: "thumbnail sample (4000×3000 JPEG) size", unit: "MB",
                value: Double(sampleBytes) / Double(files.count) / 1e6, target: "camera-like: 3–6 MB"),
            BenchResult(
                name: "thumbnails (4000×3000 JPEG → 320 px, one thread)", unit: "/s",
                value: Double(files.count) / seconds, target: "≥ 50/s per core"),
            BenchResult(
                name: "thumbnails per CPU second", unit: "/CPU-s", value: Double(files.count) / cpu,
                target: "≥ 50/s per core"),
            BenchResult(
                name: "the same JPEGs only decoded at 1/8 scale (libjpeg-turbo's entropy decoding)",
                unit: "/s", value: Double(files.count) / floorSeconds, target: "physical limit"),
        ]
    }

    /// The same files the way the daemon makes them: `peershare-thumbnailer` (beside this
    /// executable) run on batches of 16, one process each, its start-up included.
    private func throughThumbnailer(_ files: [String]) throws -> BenchResult {
        let own = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let tool = (own as NSString).deletingLastPathComponent + "/peershare-thumbnailer"
        var answered = 0
        let seconds = try measure {
            for start in stride(from: 0, to: files.count, by: 16) {
                let batch = Array(files[start..<min(start + 16, files.count)])
                let output = try BoundedProcess.run(
                    tool, batch, maxOutputBytes: 64 << 20, timeout: .seconds(600))
                guard output.status == 0 else {
                    fatalError("\(tool) ended with status \(output.status): \(output.stderr)")
                }
                answered += batch.count
            }
        }
        return BenchResult(
            name: "thumbnails through peershare-thumbnailer (batches of 16, as the daemon)", unit: "/s",
            value: Double(answered) / seconds, target: "≥ 50/s per core")
    }

    private func makeSamples() throws -> [String] {
        try FileManager.default.createDirectory(atPath: samples, withIntermediateDirectories: true)
        return try (0..<Self.count).map { n in
            let file = samples + "/sample-\(n).jpg"
            if !FileManager.default.fileExists(atPath: file) {
                let image = try SampleImage.make(width: 4000, height: 3000, sigma: 12)
                try Data(image).write(to: URL(fileURLWithPath: file))
            }
            return file
        }
    }
}
