import ControlProtocol
import Glibc

/// The line on stderr that shows how far a whole import has got, across its files:
/// `photo add: 12 of 50 files, 120.0 MiB of 300.0 MiB, 45.2 MiB/s, 4 s left`.
///
/// Only made when stderr is a terminal. The daemon's `progress` events count the bytes of
/// the file in hand (its total may count the file twice: hashed, then copied), so each is
/// scaled to that file's share of the whole.
final class ImportProgress {
    private let label: String
    private let files: Int
    private var totalBytes: Int64
    private var doneBytes: Int64 = 0
    private var doneFiles = 0
    private var current: (size: Int64, fraction: Double) = (0, 0)
    private let started = ContinuousClock.now
    private var shown = false

    init?(label: String, files: Int, totalBytes: Int64, stderrIsTerminal: Bool = isatty(2) == 1) {
        guard stderrIsTerminal else { return nil }
        self.label = label
        self.files = files
        self.totalBytes = totalBytes
    }

    /// A file starts; `size` is its size, added to the total when it was not known up front.
    func begin(size: Int64, knownUpFront: Bool) {
        if !knownUpFront { totalBytes += size }
        current = (size, 0)
        draw()
    }

    /// A `progress` event of the file in hand.
    func show(_ event: ControlEvent) {
        guard event.type == "progress", let bytes = event.data["bytes"]?.intValue,
            let total = event.data["total"]?.intValue, total > 0
        else { return }
        current.fraction = min(1, Double(bytes) / Double(total))
        draw()
    }

    /// The file in hand is done (added, skipped or failed).
    func finish() {
        doneBytes += current.size
        doneFiles += 1
        current = (0, 0)
        draw()
    }

    /// Erases the line, so a message can be printed; the next event draws it again.
    func clear() {
        if shown { Output.errRaw("\r\u{1B}[K") }
        shown = false
    }

    private func draw() {
        let bytes = doneBytes + Int64(Double(current.size) * current.fraction)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        Output.errRaw(
            "\r"
                + Self.text(
                    label: label, files: (doneFiles, files), bytes: (bytes, totalBytes), seconds: seconds)
                + "\u{1B}[K")
        shown = true
    }

    /// The line's text: counts, bytes, and once a second has passed, rate and time left.
    static func text(
        label: String, files: (done: Int, of: Int), bytes: (done: Int64, of: Int64), seconds: Double
    )
        -> String
    {
        var text = "\(label): \(files.done) of \(Formatting.count(files.of, "file")), "
        text += "\(Formatting.bytes(Int(bytes.done))) of \(Formatting.bytes(Int(bytes.of)))"
        guard seconds >= 1, bytes.done > 0 else { return text }
        let rate = Double(bytes.done) / seconds
        text += ", \(Formatting.bytes(Int(rate)))/s"
        let left = Int((Double(max(0, bytes.of - bytes.done)) / rate).rounded(.up))
        text += left >= 60 ? ", \(left / 60) min \(left % 60) s left" : ", \(left) s left"
        return text
    }
}
