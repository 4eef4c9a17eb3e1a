/// The field codes one stamp group stands for (`StampGroups`, and the `fields` column of
/// `stamp_order`): bit n for code n (codes are below 64), since an object keeps one group
/// per distinct stamp rather than one stamp per field (migrations 18 and 19).
enum FieldMask {
    /// The bit of one field code.
    static func bit(_ code: UInt8) -> Int64 {
        precondition(code < 64, "field code \(code) has no bit")
        return Int64(bitPattern: UInt64(1) << UInt64(code))
    }

    /// Each code of `mask`, lowest first.
    static func forEach(_ mask: Int64, _ body: (UInt8) throws -> Void) rethrows {
        var rest = UInt64(bitPattern: mask)
        while rest != 0 {
            try body(UInt8(rest.trailingZeroBitCount))
            rest &= rest - 1
        }
    }

    /// The mask of `codes`; codes of 64 and more have no bit and are left out (a newer
    /// version's fields, kept beside the row).
    static func of(_ codes: some Sequence<UInt8>) -> Int64 {
        codes.reduce(0) { $1 < 64 ? $0 | bit($1) : $0 }
    }

    /// How many codes `mask` holds.
    static func count(_ mask: Int64) -> Int { UInt64(bitPattern: mask).nonzeroBitCount }
}
