import Foundation

/// The built-in functions of the format language, under `NSExpression`'s names.
///
/// A format names one either by its full selector (`add:to:(1, 2)`, `sum:({1, 2})`, `now()`)
/// or by the selector's first part (`add(1, 2)`, `sum({1, 2})`, `sqrt(16)`); both give the
/// full name in the tree. A function takes one argument per `:` in its name.
enum PredicateFunctions {
    /// Every function name the parser accepts.
    static let names: [String] = [
        "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:",
        "abs:", "sqrt:", "log:", "ln:", "exp:", "floor:", "ceiling:", "trunc:",
        "uppercase:", "lowercase:", "length:", "noindex:",
        "sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:",
        "now",
        "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:",
        "onesComplement:", "castObject:toType:",
    ]

    private static let byWrittenName: [String: String] = {
        var table: [String: String] = [:]
        for name in names {
            table[name] = name
            let firstPart = String(name.prefix { $0 != ":" })
            table[firstPart] = name
        }
        return table
    }()

    /// The full name of the function written `written` (`"add"` → `"add:to:"`), or `nil`.
    static func resolve(_ written: String) -> String? {
        byWrittenName[written]
    }

    /// How many arguments the function `name` takes.
    static func arity(of name: String) -> Int {
        name.reduce(0) { $1 == ":" ? $0 + 1 : $0 }
    }

    /// `a - b`'s function, also used for unary minus (`-x` is `0 - x`).
    static let subtract = "from:subtract:"

    /// The collection operators a key path may contain (`items.@count`).
    static let collectionOperators = Set(CollectionOperator.allCases.map(\.rawValue))
}
