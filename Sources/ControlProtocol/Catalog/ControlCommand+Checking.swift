extension ControlCommand {
    /// Checks a request's `args` against this declaration: no argument it does not declare
    /// (a typo is reported, never ignored), every required one given, every value of its
    /// type and every path absolute. Throws the `invalid_arguments` error a client sees.
    ///
    /// Arguments are checked in declaration order, so the first problem is the one named.
    public func check(_ args: [String: JSON]) throws(ControlError) {
        if let unknown = args.keys.sorted().first(where: { argument($0) == nil }) {
            let allowed = arguments.map(\.key).sorted()
            let list =
                allowed.isEmpty ? "it takes no arguments" : "allowed: " + allowed.joined(separator: ", ")
            throw ControlError(.invalidArguments, "\(name): unknown argument \"\(unknown)\"; \(list)")
        }
        for argument in arguments {
            try check(args[argument.key], against: argument)
        }
    }

    private func check(_ value: JSON?, against argument: ControlArgument) throws(ControlError) {
        let key = argument.key
        guard let value, !(value == .null && !argument.isRequired) else {
            guard !argument.isRequired else {
                throw ControlError(
                    .invalidArguments, "\(name): missing argument \"\(key)\" (\(argument.type))")
            }
            return
        }
        guard argument.type.accepts(value) else {
            throw ControlError(
                .invalidArguments,
                "\(name): argument \"\(key)\" must be \(argument.type), got \(value.kindDescription)")
        }
        if argument.type == .absolutePath, let path = value.stringValue, !path.hasPrefix("/") {
            throw ControlError(
                .invalidArguments, "\(name): argument \"\(key)\" must be an absolute path, not '\(path)'")
        }
    }
}
