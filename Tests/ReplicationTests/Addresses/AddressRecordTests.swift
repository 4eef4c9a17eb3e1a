import Foundation
import Replication
import Store
import Support
import TestSupport
import Testing

/// Signed address records: only the device's own key makes one that checks; a record
/// changed after signing, one whose certificate is not the device's, a wildcard or a newer
/// format is refused; a discovery packet is one record with its magic.
@Suite struct AddressRecordTests {
    let alice: PeerIdentity
    let mallory: PeerIdentity
    let addresses = [
        PeerAddress(host: "192.0.2.7", port: 7733), PeerAddress(host: "photos.example.org", port: 443),
    ]

    init() throws {
        let temp = try TestDirectory()
        alice = try PeerIdentity.loadOrCreate(directory: temp.file("alice"))
        mallory = try PeerIdentity.loadOrCreate(directory: temp.file("mallory"))
    }

    @Test func aSignedRecordChecksAndSurvivesItsEncoding() throws {
        let record = AddressRecord.signed(addresses: addresses, version: 42, by: alice)
        #expect(record.isAuthentic)
        let decoded = try AddressRecord(decoding: record.encoded)
        #expect(decoded == record)
        #expect(decoded.isAuthentic)
        #expect(decoded.device == alice.peerID && decoded.version == 42 && decoded.addresses == addresses)
    }

    @Test func wildcardsAreNeverSigned() {
        let record = AddressRecord.signed(
            addresses: [PeerAddress(host: "0.0.0.0", port: 1)] + addresses, version: 1, by: alice)
        #expect(record.addresses == addresses)
    }

    @Test func anyChangeAfterSigningOrAnotherKeyFailsTheCheck() throws {
        let record = AddressRecord.signed(addresses: addresses, version: 42, by: alice)
        let moved = AddressRecord(
            device: record.device, version: record.version,
            addresses: [PeerAddress(host: "203.0.113.9", port: 7733)], signature: record.signature,
            certificate: record.certificate)
        let newer = AddressRecord(
            device: record.device, version: 43, addresses: record.addresses, signature: record.signature,
            certificate: record.certificate)
        let byMallory = AddressRecord(
            device: record.device, version: 99, addresses: addresses,
            signature: AddressRecord.signed(addresses: addresses, version: 99, by: mallory).signature,
            certificate: record.certificate)
        let malloryCertificate = AddressRecord(
            device: record.device, version: 99, addresses: addresses,
            signature: AddressRecord.signed(addresses: addresses, version: 99, by: mallory).signature,
            certificate: mallory.certificateDER)
        for forged in [moved, newer, byMallory, malloryCertificate] {
            #expect(!forged.isAuthentic, "\(forged.addresses) v\(forged.version)")
        }
    }

    @Test func malformedRecordsAreRefusedWithTheFieldNamed() throws {
        let record = AddressRecord.signed(addresses: addresses, version: 1, by: alice).encoded
        var newerFormat = record
        newerFormat[0] = 2
        #expect(
            throws: WireError.invalidValue(
                field: "address record format", reason: "version 2 is not known here")
        ) {
            try AddressRecord(decoding: newerFormat)
        }
        let wildcard = AddressRecord(
            device: alice.peerID, version: 1, addresses: [PeerAddress(host: "::", port: 7)],
            signature: Array(repeating: 0, count: 64), certificate: [])
        #expect(
            throws: WireError.invalidValue(
                field: "address", reason: "'[::]:7' is not a HOST:PORT a peer can dial")
        ) {
            try AddressRecord(decoding: wildcard.encoded)
        }
        #expect(throws: WireError.self) { try AddressRecord(decoding: Array(record.dropLast())) }
        #expect(throws: WireError.self) { try AddressRecord(decoding: record + [0]) }
    }

    @Test func aDiscoveryPacketIsTheMagicAFormatAndOneRecord() throws {
        let record = AddressRecord.signed(addresses: addresses, version: 7, by: alice)
        let packet = DiscoveryPacket(record).encoded
        #expect(Array(packet.prefix(5)) == Array("PSLD".utf8) + [1])
        #expect(
            packet.count <= DiscoveryPacket.maximumBytes, "one record with its certificate fits a datagram")
        #expect(try DiscoveryPacket(decoding: packet).record == record)
        #expect(
            throws: WireError.invalidValue(
                field: "discovery magic", reason: "not a PeerShare discovery packet")
        ) {
            try DiscoveryPacket(decoding: Array("XSLD".utf8) + packet.dropFirst(4))
        }
        #expect(throws: WireError.fieldTooLarge(field: "discovery packet", length: 2000, maximum: 1472)) {
            try DiscoveryPacket(decoding: Array(repeating: 0, count: 2000))
        }
    }
}
