extension Migrations {
    /// **A join's accepts kept by the joiner**: the signed accepts a device sent with a join
    /// that a member admitted while the owner was away. Until the owner ratifies the join, the
    /// device shows it these itself; the zone's log, where it would find the one the member
    /// kept, may never reach it (the member went away first). Signing a new accept then would
    /// not do for a join by the URL's token (a public share): an accept without the token takes
    /// effect only through an invitation of the person. Local, never replicated; purged with
    /// the zone's copy.
    static let v23 = Migration(
        sql: """
            CREATE TABLE join_accepts (
                zone TEXT NOT NULL,
                accept BLOB NOT NULL,
                PRIMARY KEY (zone, accept)
            );
            """)
}
