import ControlProtocol
import Replication
import Store
import Support

/// `name.set`: the person's display name (SPEC §15), signed onto its device list so that
/// every peer holding the list shows it. Device names stay with `device.rename`.
extension ControlRoutes {
    mutating func registerNames(_ services: DaemonServices) {
        let engine = services.replication.engine
        register(.nameSet) { args in
            let name = try Self.displayName(try args.string("name"), of: "a person name")
            try engine.setPersonName(name)
            let person = try LocalPerson.current(in: engine.library.privateStore)
            return ["person_id": .string(person.person.description), "person_name": .string(name)]
        }
    }

    /// `name` when this device may sign it as a display name, else a refusal saying why.
    static func displayName(_ name: String, of what: String) throws(ControlError) -> String {
        if let problem = DisplayName.problem(with: name) {
            throw ControlError(
                .invalidArguments,
                "\(what) \(PrintableText.quoted(name, limit: DisplayName.maximumBytes)) \(problem)")
        }
        return name
    }
}
