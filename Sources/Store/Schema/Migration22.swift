extension Migrations {
    /// **The stamp of a departure's leave**: a participant that leaves a share records, with
    /// the departure, the clock reading its signed `leave` carries, taken when it left. The
    /// leave it tells the owner (again after a restart, until the owner answers) is then the
    /// same operation each time, dated before anything the owner did after hearing of it: a
    /// leave signed anew at each telling would fall after the owner's later invitation of
    /// the person and end it. A departure an earlier version recorded has none; its leave is
    /// stamped when told, as before.
    static let v22 = Migration(
        sql: """
            ALTER TABLE departures ADD COLUMN stamp INTEGER;
            """)
}
