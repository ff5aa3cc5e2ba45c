import Foundation

/// One token of a predicate format string, with where it starts.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// A bare word that is not a reserved word (a key).
        case identifier(String)
        /// `#word`: a key spelled like a reserved word.
        case escapedIdentifier(String)
        /// A function name written as a selector (`sum:`, `add:to:`), before its `(`.
        case selector(String)
        /// A reserved word, matched case-insensitively.
        case keyword(PredicateKeyword)
        /// An integer literal's magnitude (the sign is a separate `-` token).
        case integer(UInt64)
        /// A floating-point literal (or an integer too large for `UInt64`).
        case double(Double)
        /// A quoted string, escapes resolved.
        case string(String)
        /// `$name`.
        case variable(String)
        /// `%@`, `%K`, `%d`…
        case formatSpecifier(PredicateFormatSpecifier)
        /// Punctuation and operators.
        case symbol(PredicateSymbol)
        /// The end of the input.
        case end
    }

    let kind: Kind
    /// Offset of the token's first character, in Unicode scalars.
    let offset: Int
    /// The token as written, for error messages.
    let text: String

    var isEnd: Bool { kind == .end }

    /// Whether the token is the reserved word `keyword`.
    func `is`(_ keyword: PredicateKeyword) -> Bool { kind == .keyword(keyword) }

    /// Whether the token is the symbol `symbol`.
    func `is`(_ symbol: PredicateSymbol) -> Bool { kind == .symbol(symbol) }
}

// MARK: - Reserved words

/// The reserved words of the predicate format language. As keys they must be written `#word`.
enum PredicateKeyword: String, CaseIterable {
    case and = "AND", or = "OR", not = "NOT", `in` = "IN"
    case all = "ALL", any = "ANY", some = "SOME", none = "NONE"
    case like = "LIKE", matches = "MATCHES", contains = "CONTAINS"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", between = "BETWEEN"
    case caseInsensitive = "CASEINSENSITIVE", ci = "CI"
    case null = "NULL", `nil` = "NIL", `self` = "SELF"
    case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO"
    case first = "FIRST", last = "LAST", size = "SIZE"
    case anyKey = "ANYKEY", subquery = "SUBQUERY", fetch = "FETCH", cast = "CAST"
    case function = "FUNCTION", ternary = "TERNARY"
    case setUnion = "UNION", setIntersect = "INTERSECT", setMinus = "MINUS"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"

    private static let byUppercasedName: [String: PredicateKeyword] =
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The reserved word spelled `word` in any case, if any.
    static func named(_ word: String) -> PredicateKeyword? {
        byUppercasedName[word.uppercased()]
    }
}

// MARK: - Symbols

/// Punctuation and operators. Alternative spellings (`=`, `<>`, `=<`, `=>`) map to one case.
enum PredicateSymbol: String, CaseIterable {
    case leftParen = "(", rightParen = ")"
    case leftBrace = "{", rightBrace = "}"
    case leftBracket = "[", rightBracket = "]"
    case comma = ",", dot = ".", at = "@"
    case equal = "==", notEqual = "!="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case andAnd = "&&", orOr = "||", bang = "!"
    case plus = "+", minus = "-", star = "*", power = "**", slash = "/"
    case assign = ":="
}

// MARK: - Format specifiers

/// A `%` specifier: what the next argument is used as.
enum PredicateFormatSpecifier: Equatable {
    /// `%@`: a value.
    case object
    /// `%K`: a key path.
    case keyPath
    /// A printf-style number or string specifier (`%d`, `%ld`, `%f`, `%s`…), as written.
    case printf(String)
}
