import CSQLite

/// SQL functions over a row's `stamps` column (`StampGroups`), registered on every
/// connection: set-based statements (the `live_links` view, deduplication, who rated or
/// added what) read and move stamps without a round trip through Swift per row.
///
/// - `stamp_hlc(stamps, code)`, `stamp_peer(stamps, code)`: the HLC and the peer number of
///   field `code`'s stamp, NULL when the field is not stamped; `stamp_fields(stamps, code)`,
///   the mask of every field carrying that stamp.
/// - `stamp_move(stamps, mask, peer, hlc)`: the stamps with the fields of `mask` moved to the
///   stamp (`peer`, `hlc`), as `StampGroups.move` does.
enum StampFunctions {
    static func register(on handle: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        // One reader for the three parts of a field's group; the user data says which.
        for (part, name) in ["stamp_hlc", "stamp_peer", "stamp_fields"].enumerated() {
            sqlite3_create_function_v2(
                handle, name, 2, flags, UnsafeMutableRawPointer(bitPattern: part + 1),
                { context, _, args in
                    guard let args, let group = StampFunctions.group(args[0], code: args[1]) else {
                        return sqlite3_result_null(context)
                    }
                    switch Int(bitPattern: sqlite3_user_data(context)) {
                    case 1: sqlite3_result_int64(context, Int64(bitPattern: group.hlc))
                    case 2: sqlite3_result_int64(context, group.peer)
                    default: sqlite3_result_int64(context, group.mask)
                    }
                }, nil, nil, nil)
        }
        sqlite3_create_function_v2(
            handle, "stamp_move", 4, flags, nil,
            { context, _, args in
                guard let args else { return sqlite3_result_null(context) }
                var groups = StampFunctions.groups(args[0])
                groups.move(
                    sqlite3_value_int64(args[1]), toPeer: sqlite3_value_int64(args[2]),
                    hlc: UInt64(bitPattern: sqlite3_value_int64(args[3])))
                guard case .blob(let bytes) = groups.encoded else { return sqlite3_result_null(context) }
                bytes.withUnsafeBytes {
                    sqlite3_result_blob(
                        context, $0.baseAddress, Int32($0.count), peershare_sqlite_transient())
                }
            }, nil, nil, nil)
    }

    fileprivate static func groups(_ value: OpaquePointer?) -> StampGroups {
        guard sqlite3_value_type(value) == SQLITE_BLOB, let bytes = sqlite3_value_blob(value) else {
            return StampGroups()
        }
        return StampGroups(raw: UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))))
    }

    fileprivate static func group(_ value: OpaquePointer?, code: OpaquePointer?) -> StampGroups.Group? {
        let code = sqlite3_value_int64(code)
        guard (0..<64).contains(code) else { return nil }
        return groups(value).group(of: UInt8(code))
    }
}
