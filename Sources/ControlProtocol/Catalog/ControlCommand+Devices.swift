/// A person's devices (SPEC §12): linking a new one, and the list; and the person's name
/// (SPEC §15).
extension ControlCommand {
    /// `device.link`: makes a one-time link (10 minutes, one use) for a new device.
    public static let deviceLink = ControlCommand("device.link", [.optional("name")])
    /// `device.join`: makes this fresh daemon a device of the person a link names.
    public static let deviceJoin = ControlCommand(
        "device.join", [.required("url"), .optional("name"), .optional("merge", .boolean)])
    /// `device.list`: the person's devices.
    public static let deviceList = ControlCommand("device.list")
    /// `device.rename`: renames one of the person's devices.
    public static let deviceRename = ControlCommand(
        "device.rename", [.required("device"), .required("name")])

    /// `device.remove`: removes another of the person's devices.
    public static let deviceRemove = ControlCommand("device.remove", [.required("device")])

    /// `name.set`: sets the person's display name, shown to everyone it shares with.
    public static let nameSet = ControlCommand("name.set", [.required("name")])

    /// The device commands; a new one is declared above and listed here.
    public static let deviceCommands: [ControlCommand] = [
        .deviceLink, .deviceJoin, .deviceList, .deviceRename, .deviceRemove, .nameSet,
    ]
}
