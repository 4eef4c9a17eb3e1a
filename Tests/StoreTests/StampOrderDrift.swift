@testable import Store

extension LibraryStore {
    /// Where `stamp_order` and the rows' own stamps disagree (they must hold the same groups,
    /// in the zone of the row), and groups that break `StampGroups`' rules (no fields, or a
    /// field in two groups): empty when the store is consistent. At most 10 lines.
    func stampOrderDrift() throws -> [String] {
        try read { db in
            var problems: [String] = []
            var fromRows = Set<String>()
            for entity in Entity.allCases {
                try db.forEach("SELECT id, zone, stamps FROM \(entity.table)") { row in
                    var seen: Int64 = 0
                    for group in StampGroups(row.value(2)).groups {
                        if group.mask == 0 || group.mask & seen != 0 {
                            problems.append("\(entity.name) \(row.string(0)): bad group \(group)")
                        }
                        seen |= group.mask
                        fromRows.insert(
                            "\(row.string(1)) \(group.peer) \(group.hlc) \(entity.rawValue) \(row.string(0)) \(group.mask)"
                        )
                    }
                }
            }
            var fromOrder = Set<String>()
            try db.forEach("SELECT zone, peer, hlc, entity, object, fields FROM stamp_order") { row in
                fromOrder.insert(
                    "\(row.string(0)) \(row.int64(1)) \(row.uint64(2)) \(row.int(3)) \(row.string(4)) \(row.int64(5))"
                )
            }
            problems += fromRows.subtracting(fromOrder).sorted().map { "in a row only: \($0)" }
            problems += fromOrder.subtracting(fromRows).sorted().map { "in stamp_order only: \($0)" }
            return Array(problems.prefix(10))
        }
    }
}
