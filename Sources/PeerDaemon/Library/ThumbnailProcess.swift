import FoundationEssentials
import Glibc
import Support

/// Makes thumbnails by running `peershare-thumbnailer` (installed beside `peershared`) on a
/// batch of files: the image decoders run in that short-lived process, never in the daemon,
/// so a hostile or damaged file can crash, hang or bloat only it (it is killed after its
/// deadline or when it writes more than the thumbnails may be), and the daemon does not
/// carry libvips and the hundred libraries it loads. One process per batch spreads its
/// start-up (the loader, libvips' own) over the batch.
struct ThumbnailProcess: Sendable {
    /// Why no thumbnail came out, as the runner decides on it.
    enum Failure: Error, Equatable {
        /// Not an image thumbnails are made of, or one that does not decode: no retry helps.
        case notAnImage(String)
        /// The data file could not be opened.
        case unreadable(String)
        /// The thumbnailer is missing, crashed, hung or failed otherwise: a later run may do.
        case failed(String)
    }

    static let executableName = "peershare-thumbnailer"

    let executable: String
    let maxBytes: Int
    var timeout: Duration = .seconds(120)

    /// The thumbnailer beside this daemon's own executable.
    static func besideDaemon(maxBytes: Int) -> ThumbnailProcess {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        let directory = FilePaths.parent(of: own)
        return ThumbnailProcess(executable: directory + "/" + executableName, maxBytes: maxBytes)
    }

    /// The thumbnails of `files`, by file, made by one run of the thumbnailer. A file the
    /// thumbnailer was decoding when it crashed, hung or overran gets `notAnImage` (no retry
    /// helps a file that kills its decoder); files after it get no answer, to be asked again.
    func thumbnails(ofFiles files: [String]) -> [String: Result<[UInt8], Failure>] {
        guard !files.isEmpty else { return [:] }
        guard access(executable, X_OK) == 0 else {
            let failure = Failure.failed(
                "\(executable) is missing or not executable: install it beside peershared")
            return Dictionary(uniqueKeysWithValues: files.map { ($0, .failure(failure)) })
        }
        let output: ProcessOutput
        do {
            output = try BoundedProcess.run(
                executable, files, maxOutputBytes: files.count * (maxBytes + 64),
                timeout: timeout + .seconds(10) * files.count)
        } catch {
            let failure = Failure.failed("cannot run \(executable): \(error)")
            return Dictionary(uniqueKeysWithValues: files.map { ($0, .failure(failure)) })
        }
        var answers = Self.answers(output.stdout)
        if answers.count < files.count {
            let reason =
                output.timedOut
                ? "\(Self.executableName) took too long on it and was killed"
                : output.tooLarge
                    ? "its thumbnail came out over \(maxBytes) bytes (max_thumbnail_bytes)"
                    : "\(Self.executableName) ended with status \(output.status) on it: "
                        + output.stderr.trimmingWhitespace()
            answers.append(.failure(.notAnImage(reason)))
        }
        return Dictionary(uniqueKeysWithValues: zip(files, answers).map { ($0, $1) })
    }

    /// The complete answers at the start of the thumbnailer's output, in order.
    static func answers(_ output: [UInt8]) -> [Result<[UInt8], Failure>] {
        var answers: [Result<[UInt8], Failure>] = []
        var position = 0
        while let newline = output[position...].firstIndex(of: 0x0A) {
            let line = String(decoding: output[position..<newline], as: UTF8.self)
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            position = newline + 1
            if words.first == "ok", words.count == 2, let length = Int(words[1]), length > 0,
                output.count - position >= length
            {
                answers.append(.success(Array(output[position..<position + length])))
                position += length
            } else if words.first == "error", words.count >= 2, let status = Int32(words[1]) {
                let reason = words.count == 3 ? words[2] : "no reason given"
                switch status {
                case ThumbnailerExit.notAnImage: answers.append(.failure(.notAnImage(reason)))
                case ThumbnailerExit.unreadable: answers.append(.failure(.unreadable(reason)))
                default: answers.append(.failure(.failed(reason)))
                }
            } else {
                break
            }
        }
        return answers
    }
}
