import Foundation
import Replication
import TestSupport
import Testing

@testable import PeerDaemon

/// `config/peershared.conf` documents every setting, with its real default, and every
/// documented line is valid when uncommented.
@Suite struct SampleConfigTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "config/peershared.conf"
        ).path

    private func documentedLines() throws -> [String: String] {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        var found: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("# ") && line.contains(" = ") {
            let body = line.dropFirst(2)
            let parts = body.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if SettingsTable.named(parts[0]) != nil { found[parts[0]] = parts[1] }
        }
        return found
    }

    /// The config's bound on the members a share URL lists is the most a URL may list.
    @Test func shareURLMembersIsBoundedByWhatAURLMayList() throws {
        let setting = try #require(SettingsTable.named("share_url_members"))
        #expect(setting.allowed == "a whole number from 0 to \(ShareURL.maximumMembers)")
    }

    @Test func everySettingIsDocumented() throws {
        let documented = try documentedLines()
        #expect(Set(documented.keys) == Set(SettingsTable.all.map(\.key)))
    }

    @Test func documentedDefaultsAreTheRealOnes() throws {
        let documented = try documentedLines()
        for setting in SettingsTable.all
        where !setting.defaultValue.hasPrefix("(") && !setting.defaultValue.hasPrefix("$") {
            #expect(documented[setting.key] == setting.defaultValue, "\(setting.key)")
        }
    }

    @Test func theSampleParsesAsIsAndUncommented() throws {
        _ = try ConfigFile.read(path: Self.path)
        let directory = try TestDirectory()
        let uncommented = try documentedLines().map { "\($0.key) = \($0.value)" }.joined(separator: "\n")
        let config = try directory.write("all.conf", uncommented + "\n")
        let arguments = try DaemonArguments.parse(["--config", config])
        let settings = try SettingsLoader(
            arguments: arguments, environment: ["HOME": "/h"], workingDirectory: "/"
        ).load()
        #expect(settings.limits == DaemonLimits())
        #expect(settings.logLevel == .info)
    }
}
