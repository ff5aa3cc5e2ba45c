import Foundation

/// Writes predicates, expressions and constants in the predicate format language,
/// canonically: one spelling per tree, so that `parse(print(p)) == p` for every tree the
/// parser produces.
///
/// Choices: `==`/`!=`, upper-case keywords, strings in double quotes, reserved words used as
/// keys escaped with `#`, `AND`/`OR` operands that are `AND`/`OR` themselves parenthesized,
/// options as `[cdn]` in that order, `NONE` as `NOT ANY`, arithmetic as infix operators with
/// every infix operand parenthesized (`(a + b) * c`, `0 - x` for unary minus), other functions
/// by their full name (`sqrt:(16)`, `now()`), constant arrays as `{…}` (the parser folds an
/// aggregate of constants into an array constant).
/// Constants without a literal form are written as `CAST("…", "Type")`, which the parser folds
/// back into the constant. Object IDs cannot be read back without a store (they print as a
/// `CAST` of their URI). Key names that are not identifiers (from `%K`) print as they are.
enum PredicateFormatPrinter {
    // MARK: - Predicates

    static func format(_ predicate: CDPredicate) -> String {
        switch predicate.kind {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison):
            return format(comparison)
        case .compound(let compound):
            return format(compound)
        }
    }

    private static func format(_ comparison: CDComparisonPredicate) -> String {
        var text = ""
        switch comparison.comparisonPredicateModifier {
        case .direct: break
        case .any: text += "ANY "
        case .all: text += "ALL "
        }
        text += format(comparison.leftExpression)
        text += " " + symbol(for: comparison.predicateOperatorType) + flags(comparison.options) + " "
        text += format(comparison.rightExpression)
        return text
    }

    private static func format(_ compound: CDCompoundPredicate) -> String {
        let operands = compound.subpredicates.map(operand)
        switch compound.compoundPredicateType {
        case .and:
            return operands.isEmpty ? "TRUEPREDICATE" : operands.joined(separator: " AND ")
        case .or:
            return operands.isEmpty ? "FALSEPREDICATE" : operands.joined(separator: " OR ")
        case .not:
            switch operands.count {
            case 0: return "NOT TRUEPREDICATE"
            case 1: return "NOT " + operands[0]
            default: return "NOT (" + operands.joined(separator: " AND ") + ")"
            }
        }
    }

    /// A subpredicate of a compound: parenthesized when it is an `AND` or `OR` itself.
    private static func operand(_ predicate: CDPredicate) -> String {
        if case .compound(let compound) = predicate.kind, compound.compoundPredicateType != .not {
            return "(" + format(predicate) + ")"
        }
        return format(predicate)
    }

    static func symbol(for type: CDComparisonPredicate.Operator) -> String {
        switch type {
        case .lessThan: return "<"
        case .lessThanOrEqualTo: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqualTo: return ">="
        case .equalTo: return "=="
        case .notEqualTo: return "!="
        case .matches: return "MATCHES"
        case .like: return "LIKE"
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .in: return "IN"
        case .contains: return "CONTAINS"
        case .between: return "BETWEEN"
        }
    }

    private static func flags(_ options: CDComparisonPredicate.Options) -> String {
        var letters = ""
        if options.contains(.caseInsensitive) { letters += "c" }
        if options.contains(.diacriticInsensitive) { letters += "d" }
        if options.contains(.normalized) { letters += "n" }
        return letters.isEmpty ? "" : "[" + letters + "]"
    }

    // MARK: - Constants

    static func format(_ value: CDValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .int64(let number): return String(number)
        case .double(let number):
            return number.isFinite ? number.description : cast(quoted(number.description), "NSNumber")
        case .decimal(let number): return cast(quoted(number.description), "NSDecimalNumber")
        case .string(let text): return quoted(text)
        case .date(let date): return cast(date.timeIntervalSinceReferenceDate.description, "NSDate")
        case .data(let data): return cast(quoted(data.base64EncodedString()), "NSData")
        case .uuid(let uuid): return cast(quoted(uuid.uuidString), "NSUUID")
        case .url(let url): return cast(quoted(url.absoluteString), "NSURL")
        case .objectID(let objectID): return cast(quoted(objectID.uriRepresentation().absoluteString), "NSManagedObjectID")
        case .array(let values): return "{" + values.map(format).joined(separator: ", ") + "}"
        }
    }

    private static func cast(_ operand: String, _ typeName: String) -> String {
        "CAST(" + operand + ", \"" + typeName + "\")"
    }

    /// A string literal in double quotes, with `\`, `"` and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    // MARK: - Key paths

    /// A key path with each reserved word escaped as `#word`.
    static func keyPath(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false).map { component in
            PredicateKeyword.named(String(component)) == nil ? String(component) : "#" + component
        }.joined(separator: ".")
    }
}
