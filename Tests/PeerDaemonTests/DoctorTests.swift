import ControlProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// `peershare doctor` against real daemons: each finding with its severity and fix, and
/// exit status 1 when one is a problem.
@Suite(.onOwnThreads) struct DoctorTests {
    /// `doctor --json` as it ran: its exit status and answer.
    static func doctor(_ daemon: DaemonProcess) throws -> (status: Int32, answer: JSON) {
        let result = try daemon.cli("--json", "doctor")
        let answer = try #require(JSONLine.decode(Data(result.stdout.utf8)), "\(result)")
        return (result.status, answer)
    }

    static func findings(_ answer: JSON, check: String) -> [JSON] {
        (answer["findings"]?.arrayValue ?? []).filter { $0["check"] == .string(check) }
    }

    @Test func aHealthyDaemonReportsNoProblemAndEveryCheck() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let (status, answer) = try Self.doctor(daemon)
        #expect(status == 0, "\(answer)")
        #expect(answer["problems"] == 0)
        let findings = try #require(answer["findings"]?.arrayValue)
        for finding in findings {
            #expect(finding.objectValue.map { Set($0.keys) } == ["check", "severity", "message", "fix"])
            #expect(["ok", "warning"].contains(finding["severity"]?.stringValue ?? ""), "\(finding)")
            // Whatever is not ok says what to do.
            #expect((finding["severity"] == "ok") == (finding["fix"] == .null), "\(finding)")
        }
        let checks = findings.compactMap { $0["check"]?.stringValue }
        for check in ["advertise", "reachability", "clock", "files", "ports", "disk", "service"] {
            #expect(checks.contains(check), "no \(check) finding in \(answer)")
        }
        let listen = try #require(try daemon.json("status")["listen"]?.stringValue)
        #expect(
            Self.findings(answer, check: "ports").first?["message"]
                == .string(
                    "peer connections on \(listen) (TCP port \(listen.split(separator: ":").last!)); "
                        + "control socket at \(daemon.socketPath)"))
        #expect(Self.findings(answer, check: "files").first?["severity"] == "ok")
        #expect(
            Self.findings(answer, check: "clock").first?["message"]?.stringValue?.hasPrefix("skew unknown")
                == true)
        // The disk finding names the threshold's setting.
        #expect(
            Self.findings(answer, check: "disk").first?["message"]?.stringValue?.contains(
                "doctor_min_free_bytes: 1.0 GiB") == true)
        // Text: one line per finding with a mark, then the count.
        let text = try daemon.cli("doctor")
        #expect(text.status == 0)
        #expect(text.stdout.contains("\nok       ports "), "\(text)")
        #expect(
            text.stdout.hasSuffix("0 problem(s), \(answer["warnings"]?.intValue ?? -1) warning(s)\n"),
            "\(text)")
    }

    @Test(.enabled(if: AdvertiseTests.canMakeNetworks))
    func aWildcardWithNothingToAdvertiseIsAProblemNamingItAndTheFix() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(
            in: directory, arguments: ["--listen", "0.0.0.0:0"], launcher: AdvertiseTests.namespace([]))
        let listen = try #require(try daemon.json("status")["listen"]?.stringValue)
        let (status, answer) = try Self.doctor(daemon)
        #expect(status == 1)
        #expect(answer["problems"] == 1)
        let finding = try #require(Self.findings(answer, check: "advertise").first)
        #expect(finding["severity"] == "problem")
        #expect(
            finding["message"]
                == .string(
                    "advertises no address: peershared listens on \(listen), a wildcard, and no network "
                        + "interface other than loopback is up; share URLs and device links cannot be made"))
        #expect(
            finding["fix"]
                == .string(
                    "set advertise = HOST:PORT in peershared.conf (or start peershared with --advertise HOST:PORT) "
                        + "to an address the other members can dial, then restart peershared"))
        let text = try daemon.cli("doctor")
        #expect(text.status == 1 && text.stderr == "", "\(text)")
        #expect(
            text.stdout.contains(
                "PROBLEM  advertise     advertises no address: peershared listens on \(listen)"), "\(text)")
        #expect(text.stdout.contains("fix: set advertise = HOST:PORT"))
    }

    @Test func aStoreFileOthersMayReadIsFlagged() throws {
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let file = daemon.stateDirectory + "/library/private.sqlite"
        #expect(chmod(file, 0o644) == 0)
        let (status, answer) = try Self.doctor(daemon)
        #expect(status == 1)
        let finding = try #require(Self.findings(answer, check: "files").first)
        #expect(finding["severity"] == "problem")
        #expect(finding["message"] == .string("other users may read or enter: \(file) (0644)"))
        #expect(
            finding["fix"]
                == .string(
                    "chmod -R go-rwx \(daemon.stateDirectory) (peershared also makes them private when it starts)"
                ))
    }

    @Test func lessFreeSpaceThanTheSettingIsAWarning() throws {
        let directory = try TestDirectory()
        let config = try directory.write("peershared.conf", "doctor_min_free_bytes = 1024TiB\n")
        let daemon = try DaemonProcess.startReady(in: directory, arguments: ["--config", config])
        let (status, answer) = try Self.doctor(daemon)
        #expect(status == 0, "a warning is no problem: \(answer)")
        let finding = try #require(Self.findings(answer, check: "disk").first)
        #expect(finding["severity"] == "warning")
        let message = try #require(finding["message"]?.stringValue)
        #expect(
            message.contains(
                " free on the file system of \(daemon.stateDirectory) (doctor_min_free_bytes: 1024.0 TiB)"))
        #expect(finding["fix"]?.stringValue?.hasPrefix("free space there, or move state_dir") == true)
    }

    @Test func membersOnlineAreReportedAsReachedAndTheirClocksChecked() throws {
        let alice = try SharingPeer("alice")
        let bob = try SharingPeer("bob")
        for peer in [alice, bob] { peer.join([alice, bob]) }
        let photo = try alice.addPhoto("beach.jpg", bytes: randomBytes(1024))
        let created = try alice.json("share", "create", photo, "--public", "read-write")
        _ = try bob.json("accept", try #require(created["url"]?.stringValue))
        try bob.syncWait()
        _ = try bob.json("tag", "add", photo, "sea")
        try bob.syncWait()
        try alice.syncWait()

        // Both sides dial; which connection is kept is the tie-break's: each side says who
        // dialed the one in use, and the two agree.
        let bobs = try bob.json("doctor")
        let alices = try alice.json("doctor")
        let reached = Self.findings(bobs, check: "reachability")
        #expect(reached.count == 1)
        #expect(reached.first?["severity"] == "ok")
        let bobDialed = "\(alice.id.prefix(7)): connected; this daemon reached it at \(alice.address)"
        let aliceDialed = "\(alice.id.prefix(7)): connected; it reached this daemon"
        let bobSays = try #require(reached.first?["message"]?.stringValue)
        #expect([bobDialed, aliceDialed].contains(bobSays), "\(bobs)")
        let aliceSays = Self.findings(alices, check: "reachability").first?["message"]?.stringValue ?? ""
        if bobSays == bobDialed {
            #expect(aliceSays == "\(bob.id.prefix(7)): connected; it reached this daemon", "\(alices)")
        } else {
            #expect(
                aliceSays.hasPrefix("\(bob.id.prefix(7)): connected; this daemon reached it at 127.0.0.1:"),
                "\(alices)")
        }
        #expect(Self.findings(bobs, check: "advertise").first?["severity"] == "ok")
        let clock = try #require(Self.findings(bobs, check: "clock").first?["message"]?.stringValue)
        #expect(
            clock.hasPrefix("no member's changes are stamped ahead of this clock (\(alice.id.prefix(7)))"),
            "\(clock)")

        #expect(alices["problems"] == 0)
    }
}
