/// "Did you mean …?" for a mistyped command word or option: the candidates the typed word
/// is a prefix of, else those within a small edit distance of it.
///
/// Part of usage errors only, so a guess never runs anything: the person retypes it.
enum Suggestions {
    /// The candidates `typed` most likely meant, best first (at most three): those it is a
    /// prefix of (when it has at least two characters beyond any dashes), else the nearest
    /// within two edits (one for words of three characters or fewer).
    static func closest(to typed: String, among candidates: [String]) -> [String] {
        let unique = candidates.reduce(into: [String]()) { seen, name in
            if name != typed && !seen.contains(name) { seen.append(name) }
        }
        let stem = typed.drop { $0 == "-" }
        if stem.count >= 2 {
            let prefixed = unique.filter { $0.hasPrefix(typed) }
            if !prefixed.isEmpty { return Array(prefixed.prefix(3)) }
        }
        let limit = stem.count <= 3 ? 1 : 2
        let scored = unique.map { (name: $0, distance: distance(typed, $0)) }.filter { $0.distance <= limit }
        guard let best = scored.map(\.distance).min() else { return [] }
        return Array(scored.filter { $0.distance == best }.map(\.name).prefix(3))
    }

    /// "did you mean 'share'?" (or "'a' or 'b'", "'a', 'b' or 'c'"), nil without candidates.
    static func phrase(_ names: [String]) -> String? {
        guard let last = names.last else { return nil }
        let quoted = names.map { "'\($0)'" }
        let list = names.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or '\(last)'"
        return "did you mean \(list)?"
    }

    /// The Damerau-Levenshtein distance (optimal string alignment): insertions, deletions,
    /// substitutions and swaps of two neighbouring characters each count one.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }
}
