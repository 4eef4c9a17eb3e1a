import COpenSSL

/// Reads OpenSSL's per-thread error queue into text, so that errors can say what OpenSSL
/// itself reported instead of a bare "failed".
enum OpenSSLErrors {
    /// What the queue held: the packed codes and their texts joined by "; ".
    struct Report {
        var codes: [UInt]
        var text: String

        /// True when the failure is a TLS alert sent by the other side (OpenSSL reports a
        /// received alert as reason 1000 + the alert number).
        var isAlertFromPeer: Bool {
            codes.contains { code in
                let reason = ERR_GET_REASON(code)
                return ERR_GET_LIB(code) == ERR_LIB_SSL && reason >= 1000 && reason < 1256
            }
        }
    }

    /// Empties the calling thread's error queue.
    static func take() -> Report {
        var report = Report(codes: [], text: "")
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            report.codes.append(code)
            messages.append(
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        report.text = messages.joined(separator: "; ")
        return report
    }

    /// Empties the queue and returns its text, or `fallback` when it was empty.
    static func drain(fallback: String = "no detail from OpenSSL") -> String {
        let text = take().text
        return text.isEmpty ? fallback : text
    }

    /// Discards whatever an earlier call left behind, so a later `drain` reports only the
    /// failure at hand.
    static func clear() {
        ERR_clear_error()
    }
}
