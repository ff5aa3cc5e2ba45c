import Foundation

/// What kind of value an SQL expression yields, known when the query is compiled.
///
/// SQLite would compare a date (stored as seconds) with a number, or convert text to a
/// number for a numeric column; the evaluator never does. Comparisons therefore check
/// kinds first and only let SQLite compare values of the same kind.
enum SQLValueKind: Equatable {
    /// Always NULL (`nil`).
    case null
    /// Integers, floating point, decimals and booleans: compared by value.
    case number
    case string
    /// Seconds since 2001, compared as numbers, but never equal to a number.
    case date
    case data
    case uuid
    case url
    /// A row of the hierarchy with this root entity (its `Z_PK`).
    case object(ObjectIdentifier)
    /// Never equal to or ordered with anything (NaN, a temporary object ID, a transformable).
    case incomparable
    /// Unknown until run time (the result of a function that can return anything).
    case any

    /// Whether SQLite may compare values of these kinds directly.
    func isComparable(with other: SQLValueKind) -> Bool {
        if self == .incomparable || other == .incomparable { return false }
        return self == other || self == .any || other == .any
    }

    /// Whether a value of this kind may be a string (for the string operators).
    var mayBeString: Bool { self == .string || self == .any }

    /// The kind of a constant as the store binds it.
    init(constant: CDValue) {
        switch constant {
        case .null: self = .null
        case .bool, .int64: self = .number
        case .double(let number): self = number.isNaN ? .incomparable : .number
        case .decimal(let number): self = number.isNaN ? .incomparable : .number
        case .string: self = .string
        case .date: self = .date
        case .data: self = .data
        case .uuid: self = .uuid
        case .url: self = .url
        case .objectID(let id): self = id.primaryKey == nil ? .incomparable : .object(ObjectIdentifier(id.entity.rootEntity))
        case .array: self = .incomparable
        }
    }

    /// The kind of a stored attribute.
    init(_ attribute: AttributeDescription) {
        switch attribute.attributeType {
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean: self = .number
        case .string: self = .string
        case .date: self = .date
        case .binaryData: self = .data
        case .uuid: self = .uuid
        case .uri: self = .url
        case .transformable, .objectID, .undefined: self = .incomparable
        }
    }
}

extension SQLValueKind: CustomStringConvertible {
    /// The kind as error messages name it.
    var description: String {
        switch self {
        case .null: return "nil"
        case .number: return "number"
        case .string: return "string"
        case .date: return "date"
        case .data: return "data"
        case .uuid: return "UUID"
        case .url: return "URL"
        case .object: return "object"
        case .incomparable: return "incomparable"
        case .any: return "untyped"
        }
    }
}

/// One SQL expression with the kind of its value.
struct SQLScalar {
    let sql: String
    let kind: SQLValueKind
    /// False when the SQL can never be NULL (a bound non-nil constant, a count).
    var isNullable = true
}

/// The rows of a to-many key path (or `SUBQUERY`), as the body of a correlated subquery:
/// `SELECT … FROM <from> WHERE <conditions>`, each row yielding `element`.
struct SQLCollection {
    var from: [String]
    var conditions: [String]
    var element: SQLScalar
    /// When the elements are objects: their row, for key paths and `SUBQUERY` variables.
    var source: SQLSource?
    /// The column ordering the elements of an ordered relationship.
    var orderColumn: String?
    /// The key of the row owning the collection when a to-one step before it may be nil:
    /// the collection is then nil (not empty), so aggregates over it are nil too.
    var owner: String?

    /// `aggregate` (a scalar subquery over the elements), nil when the collection is.
    func aggregate(_ sql: String) -> String {
        guard let owner else { return sql }
        return "(CASE WHEN \(owner) IS NULL THEN NULL ELSE \(sql) END)"
    }

    /// `FROM … WHERE …` with `extra` conditions, nil elements left out unless `keepingNils`
    /// (a key read after `[FIRST]` keeps the first element even when its value is nil).
    func body(_ extra: [String] = [], keepingNils: Bool = false) -> String {
        var all = conditions
        if element.isNullable && !keepingNils { all.append("\(element.sql) IS NOT NULL") }
        all += extra
        return "FROM " + from.joined(separator: " ") + (all.isEmpty ? "" : " WHERE " + all.joined(separator: " AND "))
    }
}

/// A compiled expression: a scalar, a constant not yet bound (its SQL form depends on
/// what it is compared with), a to-many collection, or a list of expressions (`{a, b}`).
enum SQLOperand {
    case scalar(SQLScalar)
    case constant(CDValue)
    case collection(SQLCollection)
    case list([SQLOperand])
}

extension SQLValue {
    /// A decimal as a number column holds it: INTEGER when whole and within 64 bits,
    /// else the nearest REAL (as SQLite's NUMERIC affinity stores it).
    static func number(_ decimal: Decimal) -> SQLValue {
        let whole = NSDecimalNumber(decimal: decimal).int64Value
        return Decimal(whole) == decimal ? .integer(whole) : .real(NSDecimalNumber(decimal: decimal).doubleValue)
    }
}
