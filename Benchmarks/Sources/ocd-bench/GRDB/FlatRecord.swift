import Foundation
import GRDB

/// The `Flat` row as an idiomatic GRDB record: Codable, fetchable, persistable.
struct FlatRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "ZFLAT"

    var pk: Int64
    var ent: Int64
    var opt: Int64
    var a0: Int64
    var a1: Int64
    var a2: Double
    var a3: Double
    var a4: String
    var a5: String
    var a6: Bool
    var a7: Date
    var a8: Data
    var a9: String

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case pk = "Z_PK", ent = "Z_ENT", opt = "Z_OPT"
        case a0 = "ZA0", a1 = "ZA1", a2 = "ZA2", a3 = "ZA3", a4 = "ZA4"
        case a5 = "ZA5", a6 = "ZA6", a7 = "ZA7", a8 = "ZA8", a9 = "ZA9"
    }

    /// Dates are stored as seconds since 2001, like Core Data (GRDB's default is text).
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    init(_ values: FlatValues, pk: Int64) {
        self.pk = pk
        ent = Schema.entityNumber
        opt = 1
        a0 = values.a0; a1 = values.a1; a2 = values.a2; a3 = values.a3; a4 = values.a4
        a5 = values.a5; a6 = values.a6; a7 = values.a7; a8 = values.a8; a9 = values.a9
    }

    var values: FlatValues {
        FlatValues(a0: a0, a1: a1, a2: a2, a3: a3, a4: a4, a5: a5, a6: a6, a7: a7, a8: a8, a9: a9)
    }
}
