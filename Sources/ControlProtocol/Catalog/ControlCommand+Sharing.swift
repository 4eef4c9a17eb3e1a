/// Sharing: the owner's side (`share.*`) and the participant's (`accept`, `share.leave`).
extension ControlCommand {
    /// `share.create`: shares a photo; answers with the share URL.
    public static let shareCreate = ControlCommand(
        "share.create", [.required("photo"), .optional("title"), .optional("public")])
    /// `share.add`: adds a photo to an existing share.
    public static let shareAdd = ControlCommand("share.add", [.required("photo"), .required("share")])
    /// `share.set`: changes a share's title or public permission (its owner only).
    public static let shareSet = ControlCommand(
        "share.set", [.required("share"), .optional("title"), .optional("public")])
    /// `share.invite`: invites a peer into a share.
    public static let shareInvite = ControlCommand(
        "share.invite", [.required("share"), .required("peer"), .optional("permission")])
    /// `share.approve`: lets a device that asked to join a private share in (invites it).
    public static let shareApprove = ControlCommand(
        "share.approve", [.required("share"), .required("peer"), .optional("permission")])
    /// `share.deny`: declines a request to join a private share.
    public static let shareDeny = ControlCommand("share.deny", [.required("share"), .required("peer")])
    /// `share.dismiss`: forgets a share that ended for this participant.
    public static let shareDismiss = ControlCommand("share.dismiss", [.required("share")])
    /// `share.keep`: copies a share's photos into this participant's private library.
    public static let shareKeep = ControlCommand("share.keep", [.required("share")])
    /// `share.permission`: changes a participant's permission.
    public static let sharePermission = ControlCommand(
        "share.permission", [.required("share"), .required("peer"), .required("permission")])
    /// `share.remove`: removes a participant from a share.
    public static let shareRemove = ControlCommand("share.remove", [.required("share"), .required("peer")])
    /// `share.stop`: stops sharing; participants' copies are purged.
    public static let shareStop = ControlCommand(
        "share.stop", [.required("share"), .optional("purge", .boolean)])
    /// `share.leave`: leaves a share someone else owns (purges this peer's copy).
    public static let shareLeave = ControlCommand("share.leave", [.required("share")])
    /// `share.revoke`: revokes a share's URL and makes a new one.
    public static let shareRevoke = ControlCommand("share.revoke", [.required("share")])
    /// `share.list`: shares this peer owns or takes part in.
    public static let shareList = ControlCommand("share.list")
    /// `share.show`: one share: participants, permissions, status, and the URL for its owner.
    public static let shareShow = ControlCommand("share.show", [.required("share")])
    /// `accept`: joins a share by its URL.
    public static let accept = ControlCommand("accept", [.required("url")])

    /// The sharing commands; a new one is declared above and listed here.
    public static let sharingCommands: [ControlCommand] = [
        .shareCreate, .shareAdd, .shareSet, .shareInvite, .sharePermission, .shareRemove, .shareStop,
        .shareLeave,
        .shareRevoke, .shareList, .shareShow, .accept, .shareApprove, .shareDeny, .shareDismiss, .shareKeep,
    ]
}
