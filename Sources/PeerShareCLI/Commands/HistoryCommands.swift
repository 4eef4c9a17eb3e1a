import ControlProtocol

/// `history`: what was committed, by whom, after a token.
enum HistoryCommands {
    static let commands: [CommandSpec] = [
        CommandSpec(
            path: ["history"], summary: "list committed changes, oldest first",
            options: [
                OptionSpec(
                    name: "--since", placeholder: "TOKEN", key: "since",
                    help: "only transactions after this token"),
                OptionSpec(
                    name: "--store", placeholder: "STORE", key: "store",
                    help: "private or shared (default: both; tokens count per store)"),
                OptionSpec(
                    name: "--exclude-author", placeholder: "A", key: "exclude_author",
                    help:
                        "leave out local, dedup, purge, sync (every peer), sync:PEER_ID, a device's name or "
                        + "a client's name (--author)"),
                OptionSpec(
                    name: "--limit", placeholder: "N", key: "limit",
                    help: "at most N transactions (default 10000)"),
            ],
            request: .history, mode: .call(format: list))
    ]

    private static func list(_ result: JSON) -> String {
        let entries = result.arrayValue ?? []
        guard !entries.isEmpty else { return "no history" }
        return entries.map(entry).joined(separator: "\n")
    }

    /// `#3  2026-11-29T11:34:02.445Z  private  local` and one indented line per change.
    static func entry(_ entry: JSON) -> String {
        let head = [
            "#\(Formatting.text(entry["token"]))", Formatting.text(entry["timestamp"]),
            Formatting.text(entry["store"]), Formatting.text(entry["author"]),
        ].joined(separator: "  ")
        return ([head] + (entry["changes"]?.arrayValue ?? []).map { "    " + change($0) }).joined(
            separator: "\n")
    }

    /// `insert photo 1b2c3d4e`.
    static func change(_ change: JSON) -> String {
        "\(Formatting.text(change["type"])) \(Formatting.text(change["entity"])) "
            + Formatting.shortIDs(Formatting.text(change["id"]))
    }
}
