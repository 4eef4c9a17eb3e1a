import COpenSSL

/// Reads OpenSSL's per-thread error queue into text, so that errors can say what OpenSSL
/// itself reported instead of a bare "failed".
enum OpenSSLErrors {
    /// Empties the calling thread's error queue and returns its entries joined by "; ",
    /// or `fallback` when the queue was empty.
    static func drain(fallback: String = "no detail from OpenSSL") -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? fallback : messages.joined(separator: "; ")
    }

    /// Discards whatever an earlier call left behind, so a later `drain` reports only the
    /// failure at hand.
    static func clear() {
        ERR_clear_error()
    }
}
