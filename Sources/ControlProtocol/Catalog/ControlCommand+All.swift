extension ControlCommand {
    /// Every command of the control protocol, once each: the daemon serves exactly these,
    /// and the CLI has a command for each (a test checks both). A command is added to its
    /// group's list, in the group's file.
    public static let all: [ControlCommand] =
        daemonCommands + libraryCommands + sharingCommands + peerCommands + deviceCommands

    /// The command called `name`, if the protocol has one.
    public static func named(_ name: String) -> ControlCommand? {
        all.first { $0.name == name }
    }
}
