import ControlProtocol
import TestSupport
import Testing

@testable import PeerDaemon

/// `ControlCommand.check`: a request's arguments against the catalog entry, with the
/// `invalid_arguments` messages clients see.
@Suite struct ControlCatalogCheckTests {
    private static func refusal(_ command: ControlCommand, _ args: [String: JSON]) -> String? {
        do {
            try command.check(args)
            return nil
        } catch {
            #expect(error.code == .invalidArguments)
            return error.message
        }
    }

    @Test func argumentsAreCheckedAgainstTheirDeclarationInOrder() {
        let cases: [(ControlCommand, [String: JSON], String?)] = [
            (.ping, [:], nil),
            (.status, ["verbose": true], #"status: unknown argument "verbose"; it takes no arguments"#),
            (
                .photoAdd, ["file": "/a.jpg", "colour": "red"],
                #"photo.add: unknown argument "colour"; allowed: allow_duplicates, file, name, share, tags, thumbnail"#
            ),
            (.photoAdd, ["name": "n"], #"photo.add: missing argument "file" (a string)"#),
            (
                .photoAdd, ["file": "a.jpg"],
                #"photo.add: argument "file" must be an absolute path, not 'a.jpg'"#
            ),
            (
                .photoAdd, ["file": "/a.jpg", "tags": ["x", 1]],
                #"photo.add: argument "tags" must be an array of strings, got an array"#
            ),
            (.photoAdd, ["file": "/a.jpg", "name": .null, "thumbnail": .null], nil),
            (
                .rate, ["photo": "p", "value": "5"],
                #"rate: argument "value" must be a whole number, got a string"#
            ),
            (
                .tagAdd, ["photo": .null, "name": "n"],
                #"tag.add: argument "photo" must be a string, got null"#
            ),
            (.sync, ["wait": "yes"], #"sync: argument "wait" must be true or false, got a string"#),
            // The first problem in declaration order is the one named.
            (.rate, ["value": "x"], #"rate: missing argument "photo" (a string)"#),
        ]
        for (command, args, expected) in cases {
            #expect(Self.refusal(command, args) == expected, "\(command) \(args)")
        }
    }

    @Test func everyCommandHasOneEntryAndEachArgumentOneDeclaration() {
        let names = ControlCommand.all.map(\.name)
        #expect(names.count == Set(names).count)
        for command in ControlCommand.all {
            let keys = command.arguments.map(\.key)
            #expect(keys.count == Set(keys).count, "\(command)")
            #expect(ControlCommand.named(command.name) == command)
        }
    }
}

/// The daemon's typed accessors read only what the catalog declares.
@Suite struct ControlArgumentsTests {
    @Test func anAccessorForAnUndeclaredArgumentIsAnInternalErrorNotAGuess() throws {
        let args = try ControlArguments(command: .photoAdd, values: ["file": "/a.jpg", "name": "n"])
        #expect(try args.absolutePath("file") == "/a.jpg")
        #expect(try args.optionalString("name") == "n")
        #expect(try args.strings("tags") == [])
        #expect(throws: ControlError.self) { try args.string("name") }  // declared optional
        #expect(throws: ControlError.self) { try args.optionalString("file") }  // declared a path
        do {
            _ = try args.optionalInt("size")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .internalError)
            #expect(
                error.message
                    == #"photo.add failed inside peershared: it reads argument "size" (optional, a whole number), "#
                    + "which the control catalog does not declare that way; please report this")
        }
    }
}
