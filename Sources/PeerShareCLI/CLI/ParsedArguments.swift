import ControlProtocol
import Foundation

/// The values given for one command, already checked against its `CommandSpec` and
/// converted (paths absolute, integers parsed), by control-argument key.
struct ParsedArguments: Sendable {
    var values: [String: JSON] = [:]

    /// A value by key, for `makeArgs` closures.
    subscript(key: String) -> JSON? { values[key] }

    /// Checks and converts one command-line value of a control argument of `type` (one
    /// element, for an array); `label` names it in errors. A path is made absolute: the
    /// daemon has its own working directory.
    static func convert(
        _ text: String, type: ControlValueType, label: String, command: CommandSpec, workingDirectory: String
    ) throws(CLIError) -> JSON {
        switch type {
        case .string, .strings, .boolean:
            return .string(text)
        case .absolutePath:
            guard !text.isEmpty else {
                throw .usage("\(label) must not be empty", helpCommand: "peershare \(command.name)")
            }
            // `-` stands for standard input or output; a command that takes it says so in its
            // help, and the daemon refuses it elsewhere as a relative path.
            if text == "-" { return .string(text) }
            let absolute = text.hasPrefix("/") ? text : workingDirectory + "/" + text
            return .string(URL(fileURLWithPath: absolute).standardizedFileURL.path)
        case .integer:
            guard let number = Int(text) else {
                throw .usage(
                    "\(label) must be a whole number, not '\(text)'", helpCommand: "peershare \(command.name)"
                )
            }
            return .int(number)
        }
    }
}
