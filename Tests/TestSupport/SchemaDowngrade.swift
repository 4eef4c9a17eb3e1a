@testable import Store

/// SQL taking a store back to an earlier schema, for tests that open data an earlier version
/// wrote: each runs after the later downgrades, before the test's own drops.
public enum SchemaDowngrade {
    /// Undoes migration 18: stamps one row per field again (with the view written over
    /// them in migration 5), and no packed history (entries written since lose their
    /// changes, which no upgrade test reads).
    public static var toSchema17: String {
        let view = Migrations.v5[Migrations.v5.range(of: "CREATE VIEW live_links")!.lowerBound...]
        return """
            DROP VIEW live_links;
            CREATE TABLE field_stamps (
                entity INTEGER NOT NULL,
                object TEXT NOT NULL,
                field INTEGER NOT NULL,
                zone TEXT NOT NULL,
                peer INTEGER NOT NULL,
                hlc INTEGER NOT NULL,
                PRIMARY KEY (entity, object, field)
            ) WITHOUT ROWID;
            WITH RECURSIVE bits (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM bits WHERE n < 63)
            INSERT INTO field_stamps (entity, object, field, zone, peer, hlc)
                SELECT s.entity, s.object, bits.n, s.zone, s.peer, s.hlc FROM stamps s JOIN bits
                WHERE s.fields & (1 << bits.n) != 0;
            DROP TABLE stamps;
            ALTER TABLE field_stamps RENAME TO stamps;
            CREATE INDEX stamps_by_zone ON stamps (zone, peer, hlc);
            \(view)
            ALTER TABLE history DROP COLUMN changes;
            PRAGMA user_version = 17;
            """
    }
}
