import Foundation
import Glibc
import Support
import TestSupport
import Testing

@testable import Replication

@Suite struct PeerIdentityTests {
    private func mode(_ path: String) -> UInt32 {
        var info = stat()
        #expect(stat(path, &info) == 0, "stat \(path)")
        return info.st_mode & 0o7777
    }

    @Test func firstStartCreatesPrivateFilesInAPrivateDirectory() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let directory = temp.file("state/identity")
        let identity = try PeerIdentity.loadOrCreate(directory: directory)
        #expect(mode(directory) == 0o700)
        #expect(mode(identity.keyPath) == 0o600)
        #expect(mode(identity.certificatePath) == 0o600)
        #expect(identity.keyPath == directory + "/identity.key")
        #expect(identity.certificatePath == directory + "/identity.crt")
        let pem = try String(contentsOfFile: identity.keyPath, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(leftovers == ["identity.crt", "identity.key"])
    }

    @Test func loadingAgainGivesTheSamePeerID() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let first = try PeerIdentity.loadOrCreate(directory: temp.path)
        let second = try PeerIdentity.loadOrCreate(directory: temp.path)
        #expect(first.peerID == second.peerID)
        #expect(first.certificateDER == second.certificateDER)
    }

    @Test func peerIDIsTheDigestOfTheCertificate() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let identity = try PeerIdentity.loadOrCreate(directory: temp.path)
        #expect(identity.peerID.bytes == SHA256Hasher.digest(identity.certificateDER))
    }

    @Test func twoDirectoriesGiveDifferentPeerIDs() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let a = try PeerIdentity.loadOrCreate(directory: temp.file("a"))
        let b = try PeerIdentity.loadOrCreate(directory: temp.file("b"))
        #expect(a.peerID != b.peerID)
    }

    @Test func aCorruptKeyFileIsReportedWithItsPath() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let identity = try PeerIdentity.loadOrCreate(directory: temp.path)
        try Data("-----BEGIN PRIVATE KEY-----\nnot base64 at all\n-----END PRIVATE KEY-----\n".utf8)
            .write(to: URL(fileURLWithPath: identity.keyPath))
        chmod(identity.keyPath, 0o600)
        let error = try #require(throws: IdentityError.self) {
            try PeerIdentity.loadOrCreate(directory: temp.path)
        }
        guard case .corruptKey(let path, _) = error else {
            Issue.record("expected corruptKey, got \(error)")
            return
        }
        #expect(path == identity.keyPath)
        #expect(error.description.contains(identity.keyPath))
        #expect(error.description.contains("restore it from a backup"))
    }

    @Test func aCorruptCertificateIsReported() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let identity = try PeerIdentity.loadOrCreate(directory: temp.path)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: identity.certificatePath))
        #expect(throws: IdentityError.self) { try PeerIdentity.loadOrCreate(directory: temp.path) }
    }

    @Test func aKeyFromAnotherIdentityIsRefused() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let a = try PeerIdentity.loadOrCreate(directory: temp.file("a"))
        let b = try PeerIdentity.loadOrCreate(directory: temp.file("b"))
        try FileManager.default.removeItem(atPath: a.keyPath)
        try FileManager.default.copyItem(atPath: b.keyPath, toPath: a.keyPath)
        chmod(a.keyPath, 0o600)
        #expect(
            throws: IdentityError.keyDoesNotMatchCertificate(
                keyPath: a.keyPath, certificatePath: a.certificatePath)
        ) {
            try PeerIdentity.loadOrCreate(directory: temp.file("a"))
        }
    }

    @Test func aMissingCertificateIsReportedNotReplaced() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let identity = try PeerIdentity.loadOrCreate(directory: temp.path)
        try FileManager.default.removeItem(atPath: identity.certificatePath)
        #expect(
            throws: IdentityError.incomplete(present: identity.keyPath, missing: identity.certificatePath)
        ) {
            try PeerIdentity.loadOrCreate(directory: temp.path)
        }
    }

    @Test func aKeyReadableByOthersIsRefused() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let identity = try PeerIdentity.loadOrCreate(directory: temp.path)
        chmod(identity.keyPath, 0o644)
        let error = try #require(throws: IdentityError.self) {
            try PeerIdentity.loadOrCreate(directory: temp.path)
        }
        #expect(error == .keyFileTooOpen(path: identity.keyPath, mode: 0o644))
        #expect(error.description.contains("chmod 600"))
    }

    @Test func aFileInPlaceOfTheDirectoryIsReported() throws {
        let temp = try TestDirectory()
        defer { temp.remove() }
        let path = temp.file("file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: IdentityError.self) { try PeerIdentity.loadOrCreate(directory: path) }
    }
}
