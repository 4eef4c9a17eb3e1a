import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// The signed bytes of a membership operation: every action survives the trip, and
/// anything malformed is refused with its own error.
@Suite struct MembershipOperationTests {
    let people = MembershipPeople.shared

    var everyAction: [MembershipOperation.Action] {
        let device = people.aliceDevice.peerID
        return [
            .create(owner: people.owner, title: "Holiday ☀️", publicPermission: .readOnly),
            .setTitle(""),
            .setPublicPermission(.none),
            .invite(person: people.alice, permission: .readWrite),
            .addToken(hash: [UInt8](repeating: 7, count: 32), permission: .none),
            .revokeToken(hash: [UInt8](repeating: 7, count: 32)),
            .setPermission(person: people.alice, permission: .readOnly),
            .remove(
                person: people.alice,
                cutoffs: [
                    .init(device: people.bobDevice.peerID, seq: 9, hash: [UInt8](repeating: 2, count: 32)),
                    .init(device: device, seq: 4, hash: [UInt8](repeating: 1, count: 32)),
                ]),
            .remove(person: people.bob, cutoffs: []),
            .stop,
            .accept(person: people.alice, device: device, token: Array("secret-token".utf8)),
            .accept(person: people.alice, device: device, token: nil),
            .leave(person: people.alice),
        ]
    }

    @Test func everyActionSurvivesEncodingWithItsSignatureAndHash() throws {
        for (index, action) in everyAction.enumerated() {
            let op = people.op(action, by: people.laptop, at: 1_000 + UInt64(index))
            let decoded = try MembershipOperation(decoding: op.encoded)
            #expect(decoded == op)
            #expect(decoded.hash == op.hash)
            #expect(decoded.hash == SHA256Hasher.digest(op.encoded))
            #expect(decoded.isSigned(withKeyIn: people.laptop.certificateDER), "\(action)")
        }
        // Cut-offs are put in device order when signed, whatever order they were given in.
        let sorted = everyAction[7]
        if case .remove(_, let cutoffs) = people.op(sorted, by: people.laptop, at: 1).action {
            #expect(cutoffs.map(\.device) == cutoffs.map(\.device).sorted())
        }
    }

    @Test func everyTruncationAndTrailingByteIsRefused() throws {
        for action in everyAction {
            let bytes = people.op(action, by: people.laptop, at: 5).encoded
            for length in 0..<bytes.count {
                #expect(throws: MembershipError.self, "\(action) cut at \(length)") {
                    _ = try MembershipOperation(decoding: Array(bytes.prefix(length)))
                }
            }
            #expect(
                throws: MembershipError.malformed(.trailingBytes(message: "membership operation", count: 1))
            ) {
                _ = try MembershipOperation(decoding: bytes + [0])
            }
        }
        let bytes = people.create().encoded
        #expect(
            throws: MembershipError.malformed(
                .truncated(field: "membership signature", needed: 64, remaining: 63))
        ) { _ = try MembershipOperation(decoding: Array(bytes.dropLast())) }
    }

    @Test func aNewerFormatIsRefusedWithAnUpgradeHint() throws {
        var bytes = people.create().encoded
        bytes[0] = 2
        #expect(throws: MembershipError.newerFormat(version: 2, supported: 1)) {
            _ = try MembershipOperation(decoding: bytes)
        }
        #expect(
            MembershipError.newerFormat(version: 2, supported: 1).description.contains("upgrade peershared"))
        bytes[0] = 0
        #expect(
            throws: MembershipError.malformed(
                .invalidValue(field: "membership operation version", reason: "0 is not 1"))
        ) { _ = try MembershipOperation(decoding: bytes) }
    }

    @Test func oversizedOrInvalidFieldsAreRefused() throws {
        let long = String(repeating: "é", count: MembershipOperation.maximumTitleBytes / 2 + 1)
        let tooLong = people.op(.setTitle(long), by: people.laptop, at: 1).encoded
        #expect(
            throws: MembershipError.malformed(
                .fieldTooLarge(
                    field: "title", length: long.utf8.count, maximum: MembershipOperation.maximumTitleBytes))
        ) { _ = try MembershipOperation(decoding: tooLong) }
        let longest = String(repeating: "a", count: MembershipOperation.maximumTitleBytes)
        let fits = people.op(.setTitle(longest), by: people.laptop, at: 1)
        #expect(try MembershipOperation(decoding: fits.encoded) == fits)

        let noPermission = people.op(
            .invite(person: people.alice, permission: .none), by: people.laptop, at: 1)
        #expect(
            throws: MembershipError.malformed(
                .invalidValue(field: "participant permission", reason: "none: remove the person instead"))
        ) { _ = try MembershipOperation(decoding: noPermission.encoded) }

        let cutoff = MembershipOperation.Cutoff(
            device: people.aliceDevice.peerID, seq: 1, hash: [UInt8](repeating: 0, count: 32))
        let repeated = MembershipOperation(
            zone: "zone-1", action: .remove(person: people.alice, cutoffs: [cutoff, cutoff]), stamp: 1,
            signer: people.laptop.peerID, signerPerson: people.owner,
            signature: [UInt8](repeating: 0, count: 64))
        #expect(
            throws: MembershipError.malformed(
                .invalidValue(field: "cut-offs", reason: "not in device order or repeated"))
        ) { _ = try MembershipOperation(decoding: repeated.encoded) }

        let tooMany = MembershipOperation(
            zone: "zone-1",
            action: .remove(
                person: people.alice,
                cutoffs: Array(repeating: cutoff, count: MembershipOperation.maximumCutoffs + 1)),
            stamp: 1, signer: people.laptop.peerID, signerPerson: people.owner,
            signature: [UInt8](repeating: 0, count: 64))
        #expect(
            throws: MembershipError.malformed(
                .fieldTooLarge(
                    field: "cut-offs", length: MembershipOperation.maximumCutoffs + 1,
                    maximum: MembershipOperation.maximumCutoffs))
        ) { _ = try MembershipOperation(decoding: tooMany.encoded) }

        let emptyZone = people.create(zone: "").encoded
        #expect(throws: MembershipError.malformed(.invalidValue(field: "zone", reason: "empty"))) {
            _ = try MembershipOperation(decoding: emptyZone)
        }
        var unknownAction = people.op(.stop, by: people.laptop, at: 1).encoded
        unknownAction[1 + 4 + 6 + 8 + 32 + 32] = 99
        #expect(
            throws: MembershipError.malformed(
                .invalidValue(field: "membership action", reason: "unknown action 99"))
        ) { _ = try MembershipOperation(decoding: unknownAction) }
    }

    @Test func theSignatureCoversADomainTagSoItPassesForNoDeviceListEntry() throws {
        let op = people.op(.stop, by: people.laptop, at: 1)
        #expect(!Signature.verify(op.signature, of: op.body, certificateDER: people.laptop.certificateDER))
        #expect(
            !Signature.verify(
                op.signature, of: DeviceListEntry.signedMessage(op.body, person: people.owner),
                certificateDER: people.laptop.certificateDER))
        #expect(
            Signature.verify(
                op.signature, of: Array("peershare membership v1\0".utf8) + op.body,
                certificateDER: people.laptop.certificateDER))
    }
}
