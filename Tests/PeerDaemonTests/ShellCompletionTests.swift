import Foundation
import TestSupport
import Testing

/// `peershare completion bash|zsh|fish`: each script loads in its shell and completes
/// command words, subcommands, options, files and the help topics from the command table.
@Suite(.onOwnThreads) struct ShellCompletionTests {
    /// What each line typed so far (the last word is the one being completed) completes to.
    static let expected: [(line: [String], completions: [String])] = [
        (["peershare", "sh"], ["share"]),
        (["peershare", "share", "c"], ["create"]),
        (["peershare", "photo", "add", "--na"], ["--name"]),
        (["peershare", "photo", "list", "--t"], ["--tag", "--timeout"]),
        (["peershare", "--socket", "/x", "sta"], ["status"]),
        (["peershare", "photo", "add", "pict"], ["picture.jpg"]),
        (["peershare", "photo", "add", "--thumbnail", "pict"], ["picture.jpg"]),
        (["peershare", "help", "share", "cr"], ["create"]),
        (["peershare", "completion", "f"], ["fish"]),
    ]

    static func run(_ shell: String, _ arguments: [String], in directory: TestDirectory) throws -> (
        Int32, String
    ) {
        var environment = DaemonProcess.baseEnvironment(directory)
        environment["PATH"] =
            URL(fileURLWithPath: try Products.path("peershare")).deletingLastPathComponent().path
            + ":/usr/bin:/bin"
        let child = try ChildProcess(
            executable: shell, arguments: arguments, environment: environment, directory: directory,
            label: "\((shell as NSString).lastPathComponent)-\(UUID().uuidString.prefix(8))")
        let status = try child.waitForExit(timeout: .seconds(60))
        return (status, child.stdout + child.stderr)
    }

    @Test func theBashScriptLoadsAndCompletes() throws {
        let directory = try TestDirectory()
        _ = try directory.write("picture.jpg", "x")
        let (status, output) = try Self.run(
            "/bin/bash", ["-c", "source <(peershare completion bash) && complete -p peershare"], in: directory
        )
        #expect(status == 0, "\(output)")
        #expect(output == "complete -F _peershare peershare\n")

        var script = "source <(peershare completion bash) || exit 1\n"
        for (line, _) in Self.expected {
            let words = line.map { "'\($0)'" }.joined(separator: " ")
            script +=
                "COMP_WORDS=(\(words)); COMP_CWORD=\(line.count - 1); _peershare; echo \"${COMPREPLY[*]}\"\n"
        }
        let (completed, lines) = try Self.run("/bin/bash", ["-c", script], in: directory)
        #expect(completed == 0, "\(lines)")
        #expect(lines == Self.expected.map { $0.completions.joined(separator: " ") + "\n" }.joined())
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "zsh is not installed"))
    func theZshScriptLoadsAndCompletes() throws {
        let directory = try TestDirectory()
        _ = try directory.write("picture.jpg", "x")
        // Outside a completion widget compadd and _files do not exist: stand-ins print what
        // they are given (zsh filters by prefix itself, so compadd gets every candidate).
        var script = """
            compdef() { print -r -- "compdef $*" }
            source <(peershare completion zsh) || exit 1
            compadd() { shift; print -r -- "$*" }
            _files() { print -r -- "files" }

            """
        let lines = [
            ["peershare", "sh"], ["peershare", "share", "c"], ["peershare", "help", "share", ""],
            ["peershare", "photo", "add", "pict"], ["peershare", "completion", ""],
        ]
        for line in lines {
            script +=
                "words=(\(line.map { "'\($0)'" }.joined(separator: " "))); CURRENT=\(line.count); _peershare\n"
        }
        let (status, output) = try Self.run("/usr/bin/zsh", ["-f", "-c", script], in: directory)
        #expect(status == 0, "\(output)")
        let share =
            "create add set invite permission remove stop leave revoke list show approve deny keep dismiss"
        let printed = output.split(separator: "\n").map(String.init)
        #expect(printed.count == 6, "\(output)")
        guard printed.count == 6 else { return }
        #expect(printed[0] == "compdef _peershare peershare")
        #expect(printed[1].split(separator: " ").contains("share"))
        #expect(Array(printed[2...]) == [share, share, "files", "bash zsh fish"])
    }

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "fish is not installed"))
    func theFishScriptLoadsAndCompletes() throws {
        let directory = try TestDirectory()
        _ = try directory.write("picture.jpg", "x")
        var script = "peershare completion fish | source; or exit 3\n"
        for (line, _) in Self.expected {
            let typed = line.joined(separator: " ")
            script += "complete -C '\(typed)' | string replace -r '\\t.*' '' | string join ' '\n"
        }
        // `string join` fails when it has one word to join: the script's status is its own.
        let (status, output) = try Self.run(
            "/usr/bin/fish", ["--no-config", "-c", script + "exit 0\n"], in: directory)
        #expect(status == 0, "\(output)")
        // fish sorts and may add a trailing slash or description; compare the sets.
        let got = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            Set($0.split(separator: " ").map(String.init))
        }
        #expect(got == Self.expected.map { Set($0.completions) }, "\(output)")
    }

    @Test func anUnknownShellIsAUsageErrorWithASuggestion() throws {
        let directory = try TestDirectory()
        let result = try CLI.run(["completion", "bsh"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "peershare: unknown shell 'bsh': did you mean 'bash' or 'zsh'? (see 'peershare completion --help')\n"
        )
    }
}
