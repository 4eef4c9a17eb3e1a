import ControlProtocol
import Glibc

/// The line on stderr that shows how far a long copy has got (`photo add: 12.0 MiB of
/// 100.0 MiB (12%)`), redrawn in place from the daemon's `progress` events and erased
/// before the result is printed.
///
/// Only made when stderr is a terminal: in scripts and logs, progress would be noise.
final class ProgressLine {
    let label: String
    private var shown = false

    init?(label: String, stderrIsTerminal: Bool = isatty(2) == 1) {
        guard stderrIsTerminal else { return nil }
        self.label = label
    }

    /// Draws a `progress` event's `{"bytes", "total"}`.
    func show(_ event: ControlEvent) {
        guard event.type == "progress", let bytes = event.data["bytes"]?.intValue,
            let total = event.data["total"]?.intValue, total > 0
        else { return }
        Output.errRaw("\r\(Self.text(label: label, bytes: bytes, total: total))\u{1B}[K")
        shown = true
    }

    /// Erases the line, if one was drawn.
    func clear() {
        if shown { Output.errRaw("\r\u{1B}[K") }
        shown = false
    }

    static func text(label: String, bytes: Int, total: Int) -> String {
        let percent = total > 0 ? min(100, bytes * 100 / total) : 100
        return "\(label): \(Formatting.bytes(bytes)) of \(Formatting.bytes(total)) (\(percent)%)"
    }
}
