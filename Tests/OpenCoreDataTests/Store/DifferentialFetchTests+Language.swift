import Foundation
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Random predicates over the rest of the language, for the differential test: string
/// operators with every option, IN / BETWEEN, ANY / ALL / NONE over to-many paths,
/// collection operators, SUBQUERY, functions and arithmetic, TERNARY.
extension DifferentialFetchTests {
    static let stringOperators = ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "==", "!=", "<", ">=", "IN"]
    static let options = ["", "[c]", "[d]", "[cd]", "[n]"]
    static let patterns = [".*", "a.*", "[A-Z].*", ".*e", "(?i)str.*", "file[0-9]+", ".", "\\\\w+", "日本.*"]
    static let numericKeys = ["int64", "double"]

    static func randomLanguageSpec(_ rows: [Row], _ random: inout SeededRandom) -> Spec {
        switch Int.random(in: 0..<9, using: &random) {
        case 0, 1: return randomStringSpec(prefix: random.pick(["", "parent."]), rows, &random)
        case 2: return randomMembershipSpec(rows, &random)
        case 3, 4: return randomModifierSpec(rows, &random)
        case 5: return randomAggregateSpec(rows, &random)
        case 6: return randomSubquerySpec(rows, &random)
        default: return randomArithmeticSpec(rows, &random)
        }
    }

    /// A string, often derived from a row's (a prefix, a suffix, a part, a LIKE pattern).
    static func randomText(for op: String, _ rows: [Row], _ random: inout SeededRandom) -> Any? {
        if random.chance(0.05) { return nil }
        if random.chance(0.05) { return Int.random(in: 0...3, using: &random) }
        if op == "MATCHES" { return random.pick(patterns) }
        let text = random.pick(rows).string ?? random.pick(strings)
        let scalars = Array(text.unicodeScalars)
        let cut = Int.random(in: 0...scalars.count, using: &random)
        let string = { (part: ArraySlice<Unicode.Scalar>) in String(String.UnicodeScalarView(part)) }
        switch op {
        case "BEGINSWITH": return string(scalars[..<cut])
        case "ENDSWITH": return string(scalars[cut...])
        case "CONTAINS", "IN": return string(scalars[(cut / 2)..<cut])
        case "LIKE":
            return String(String.UnicodeScalarView(scalars.map { scalar in
                random.chance(0.2) ? "?" : scalar
            })) + (random.chance(0.4) ? "*" : "")
        default: return random.chance(0.6) ? text : random.pick(strings)
        }
    }

    static func randomStringSpec(prefix: String, _ rows: [Row], _ random: inout SeededRandom) -> Spec {
        let key = prefix + random.pick(["string", "string", "key"])
        let op = random.pick(stringOperators)
        let options = random.pick(Self.options)
        let value = randomText(for: op, rows, &random)
        if op == "IN" { return .format("%@ IN\(options) \(key)", [.value(value)]) }
        return .format("\(key) \(op)\(options) %@", [.value(value)])
    }

    static func randomMembershipSpec(_ rows: [Row], _ random: inout SeededRandom) -> Spec {
        let key = random.pick(["int64", "double", "string", "flag", "date", "parent.int64", "parent", "SELF"])
        let values: [Any?] = (0..<Int.random(in: 0...6, using: &random)).map { _ in
            switch randomConstant(for: key, rows, &random) {
            case .value(let value): return value
            case .row(let index): return index
            case .rows: return nil
            }
        }
        if key == "parent" || key == "SELF" {
            let indexes = values.compactMap { $0 as? Int }.filter { $0 >= 0 && $0 < rows.count }
            return .format("\(key) IN %@", [.rows(indexes)])
        }
        if random.chance(0.3), values.count >= 2 {
            return .format("\(key) BETWEEN %@", [.value([values[0], values[1]])])
        }
        return .format("\(key) IN\(random.chance(0.2) ? "[c]" : "") %@", [.value(values)])
    }

    static func randomModifierSpec(_ rows: [Row], _ random: inout SeededRandom) -> Spec {
        let modifier = random.pick(["ANY", "ALL", "NONE"])
        let path = random.pick(["children", "children", "children.children", "parent.children"])
        let attribute = random.pick(["int64", "double", "string", "flag", "date"])
        if attribute == "string" && random.chance(0.6) {
            let op = random.pick(stringOperators.filter { $0 != "IN" })
            let options = random.pick(Self.options)
            return .format("\(modifier) \(path).string \(op)\(options) %@", [.value(randomText(for: op, rows, &random))])
        }
        let op = random.pick(operators + ["IN"])
        if op == "IN" {
            let values: [Any?] = (0..<3).map { _ in if case .value(let v) = randomConstant(for: attribute, rows, &random) { return v } else { return nil } }
            return .format("\(modifier) \(path).\(attribute) IN %@", [.value(values)])
        }
        if random.chance(0.15) { return .format("%@ IN \(path).\(attribute)", [randomConstant(for: attribute, rows, &random)]) }
        return .format("\(modifier) \(path).\(attribute) \(op) %@", [randomConstant(for: attribute, rows, &random)])
    }

    static func randomAggregateSpec(_ rows: [Row], _ random: inout SeededRandom) -> Spec {
        let path = random.pick(["children", "children", "children.children", "parent.children"])
        let op = random.pick(operators)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return .format("\(path).@count \(op) %@", [.value(Int.random(in: 0...3, using: &random))])
        case 1:
            let key = random.pick(numericKeys)
            return .format("\(path).@sum.\(key) \(op) %@", [randomConstant(for: key, rows, &random)])
        case 2:
            let key = random.pick(numericKeys)
            return .format("\(path).@avg.\(key) \(op) %@", [randomConstant(for: key, rows, &random)])
        case 3:
            let key = random.pick(["int64", "double", "string", "date"])
            let collectionOperator = random.pick(["@min", "@max"])
            return .format(random.chance(0.5) ? "\(path).\(collectionOperator).\(key) \(op) %@" : "\(path).\(key).\(collectionOperator) \(op) %@",
                           [randomConstant(for: key, rows, &random)])
        default:
            return .format("\(path).@count \(op) int64", [])
        }
    }

    static func randomSubquerySpec(_ rows: [Row], _ random: inout SeededRandom) -> Spec {
        let key = random.pick(["int64", "double", "string", "flag", "date"])
        let op = key == "string" ? random.pick(stringOperators.filter { $0 != "IN" }) + random.pick(options) : random.pick(operators)
        let value: Constant = key == "string" ? .value(randomText(for: String(op.prefix { $0 != "[" }), rows, &random)) : randomConstant(for: key, rows, &random)
        var inner = "$c.\(key) \(op) %@"
        var arguments = [value]
        if random.chance(0.3) { inner += " AND $c.int64 > int64" }
        if random.chance(0.2) {
            inner = "SUBQUERY($c.children, $g, $g.\(key) \(op) %@).@count > 0"
        }
        if random.chance(0.2) { inner = "ANY $c.children.\(key) \(op) %@"; arguments = [value] }
        let count = random.pick(operators)
        return .format("SUBQUERY(children, $c, \(inner)).@count \(count) %@", arguments + [.value(Int.random(in: 0...2, using: &random))])
    }

    static func randomArithmeticSpec(_ rows: [Row], _ random: inout SeededRandom) -> Spec {
        let op = random.pick(operators)
        let small = { (random: inout SeededRandom) in Constant.value(random.pick([Int.random(in: -5...5, using: &random), Double(Int.random(in: -8...8, using: &random)) / 4] as [Any])) }
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return .format("int64 + %@ \(op) double", [small(&random)])
        case 1: return .format("int64 * %@ \(op) %@", [small(&random), small(&random)])
        case 2: return .format("double / %@ \(op) %@", [small(&random), small(&random)])
        case 3: return .format("modulus:by:(int64, %@) \(op) %@", [small(&random), small(&random)])
        case 4: return .format("-int64 \(op) %@", [small(&random)])
        case 5: return .format("abs(double) \(op) %@", [small(&random)])
        case 6: return .format("TERNARY(flag == YES, int64, double) \(op) %@", [small(&random)])
        default: return .format("length(string) \(op) %@", [.value(Int.random(in: 0...6, using: &random))])
        }
    }
}
