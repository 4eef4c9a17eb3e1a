import ControlProtocol

/// What became of one file of an import.
enum ImportOutcome {
    case added(id: String)
    /// Its data is already in the library, as this photo.
    case duplicate(of: String)
    /// The same file was named earlier in the same command.
    case givenTwice
    case failed(ControlError)

    /// Its `--json` line: `{"file", "status": "added"|"skipped"|"failed", …}`.
    func record(file: String) -> JSON {
        switch self {
        case .added(let id): return ["file": .string(file), "status": "added", "id": .string(id)]
        case .duplicate(let photo):
            return [
                "file": .string(file), "status": "skipped", "reason": "duplicate",
                "duplicate_of": .string(photo),
            ]
        case .givenTwice: return ["file": .string(file), "status": "skipped", "reason": "given_twice"]
        case .failed(let error):
            return [
                "file": .string(file), "status": "failed",
                "error": error.json,
            ]
        }
    }
}

/// The counts an import ends with.
struct ImportSummary {
    var added = 0
    var duplicates = 0
    var givenTwice = 0
    var failed = 0

    var skipped: Int { duplicates + givenTwice }

    mutating func count(_ outcome: ImportOutcome) {
        switch outcome {
        case .added: added += 1
        case .duplicate: duplicates += 1
        case .givenTwice: givenTwice += 1
        case .failed: failed += 1
        }
    }

    /// `added 40, skipped 10 (duplicates), failed 0`; the reasons counted apart when both occur.
    var text: String {
        var why = " (duplicates)"
        if skipped == 0 {
            why = ""
        } else if givenTwice > 0 {
            why =
                duplicates > 0
                ? " (\(Formatting.count(duplicates, "duplicate")), \(givenTwice) given twice)"
                : " (given twice)"
        }
        return "added \(added), skipped \(skipped)\(why), failed \(failed)"
    }

    var json: JSON {
        ["added": .int(added), "skipped": .int(skipped), "failed": .int(failed)]
    }
}
