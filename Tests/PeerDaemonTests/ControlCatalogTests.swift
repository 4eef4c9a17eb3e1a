import ControlProtocol
import Foundation
import TestSupport
import Testing

@testable import PeerShareCLI

/// The control catalog (`ControlCommand.all`) is the one list of commands: the daemon
/// serves exactly it, the CLI has a command for each entry, and every argument the CLI
/// sends is one the entry declares.
@Suite(.onOwnThreads) struct ControlCatalogTests {
    @Test func everyCatalogCommandHasADaemonRouteAndACLICommandAndNothingElseDoes() throws {
        let catalog = Set(ControlCommand.all.map(\.name))
        #expect(catalog.count == ControlCommand.all.count, "a command is listed twice in ControlCommand.all")

        // `help` and `completion` are answered by peershare itself.
        let requests = Set(CommandTable.all.filter { !$0.isLocal }.map(\.request.name))
        #expect(catalog.subtracting(requests).sorted() == [], "catalog commands no peershare command sends")
        #expect(requests.subtracting(catalog).sorted() == [], "peershare requests outside the catalog")

        // The daemon lists the commands it routes when asked for one it does not know.
        let directory = try TestDirectory()
        let daemon = try DaemonProcess.startReady(in: directory)
        let answer = try RawControlClient(path: daemon.socketPath).request(#"{"command": "no.such"}"#)
        let message = try #require(answer["error"]?["message"]?.stringValue)
        let prefix = "unknown command 'no.such': the commands are "
        #expect(message.hasPrefix(prefix), "\(message)")
        let routes = Set(message.dropFirst(prefix.count).split(separator: ", ").map(String.init))
        #expect(catalog.subtracting(routes).sorted() == [], "catalog commands the daemon does not route")
        #expect(routes.subtracting(catalog).sorted() == [], "daemon routes outside the catalog")
        #expect(requests.subtracting(routes).sorted() == [], "peershare requests the daemon does not route")
        try daemon.stop()
    }

    @Test func everyCLIArgumentIsOneItsControlCommandDeclaresAndEveryDeclaredOneCanBeGiven() {
        for spec in CommandTable.all where !spec.isLocal {
            // Local options (`photo add -r`) are read by the CLI itself and never sent.
            let keys = spec.arguments.map(\.key) + spec.options.filter { !$0.local }.map(\.key)
            let declared = spec.request.arguments.map(\.key)
            #expect(
                Set(keys).subtracting(declared).sorted() == [],
                "peershare \(spec.name) sends arguments \(spec.request) does not declare")
            #expect(
                Set(declared).subtracting(keys).sorted() == [],
                "peershare \(spec.name) cannot give every argument of \(spec.request)")
            #expect(keys.count == Set(keys).count, "peershare \(spec.name) maps an argument twice")
            // A required control argument is positional, so the CLI never sends without it.
            for option in spec.options where !option.local {
                #expect(
                    spec.request.argument(option.key)?.isRequired == false,
                    "peershare \(spec.name) \(option.name) is an option for a required argument")
            }
        }
    }
}
