extension StringProtocol {
    /// The text without white space (line breaks included) at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives. The daemon's modules link
    /// FoundationEssentials only, which has no `CharacterSet` trimming, so that the daemon
    /// does not load Foundation and ICU (about 6 MiB of its resident memory).
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
