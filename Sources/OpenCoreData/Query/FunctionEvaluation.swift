import Foundation

/// The built-in functions of `CDExpression(forFunction:arguments:)`, by NSExpression's names.
///
/// - Arithmetic (`NumericValue`'s rules): `add:to:`, `from:subtract:`, `multiply:by:`,
///   `divide:by:` (always a double), `modulus:by:` (sign of the dividend), `raise:toPower:`,
///   `abs:`. `add:to:` also adds seconds to a date, `from:subtract:` subtracts seconds
///   from a date or gives the seconds between two dates.
/// - `sqrt:`, `log:` (base 10), `ln:`, `exp:`: doubles (a negative square root is NaN);
///   `floor:`, `ceiling:`, `trunc:`: integers unchanged, other numbers rounded as doubles.
/// - Statistics over one collection argument, or over all the arguments: `sum:`,
///   `count:`, `min:`, `max:`, `average:`, `median:`, `mode:` (a collection), `stddev:`
///   (see `AggregateFunctions`).
/// - Bits, on whole numbers (Int64, two's complement): `bitwiseAnd:with:`,
///   `bitwiseOr:with:`, `bitwiseXor:with:`, `leftshift:by:`, `rightshift:by:`
///   (arithmetic; shifting by 64 or more gives 0, or -1 for a negative number shifted
///   right), `onesComplement:`.
/// - Strings: `uppercase:`, `lowercase:`, `length:` (UTF-16 code units, as `NSString`).
/// - `now`: the current date; `noindex:`: its argument; `castObject:toType:`: see
///   `CastEvaluation`.
///
/// A `nil` operand gives `nil` (`count:` of nothing is 0). Operands of the wrong type, the
/// wrong number of arguments and unknown names are `.invalidPredicate` errors; `random`
/// and `randomn:` are not supported (their results could not agree with a store's).
enum FunctionEvaluation {
    static func call(_ name: String, _ arguments: [Any?]) throws -> Any? {
        let call = FunctionCall(name: name, arguments: arguments.map(CDValue.flattenOptional))
        switch name {
        case "add:to:": return try call.addingDates() ?? call.numbers { .add($0, $1) }
        case "from:subtract:": return try call.subtractingDates() ?? call.numbers { .subtract($0, $1) }
        case "multiply:by:": return try call.numbers { .multiply($0, $1) }
        case "divide:by:": return try call.numbers { .divide($0, $1) }
        case "modulus:by:": return try call.numbers { .modulus($0, $1) }
        case "raise:toPower:": return try call.numbers { .power($0, $1) }
        case "abs:": return try call.number { $0.magnitude }
        case "sqrt:": return try call.double { $0.squareRoot() }
        case "log:": return try call.double { log10($0) }
        case "ln:": return try call.double { log($0) }
        case "exp:": return try call.double { exp($0) }
        case "floor:": return try call.rounded(.down)
        case "ceiling:": return try call.rounded(.up)
        case "trunc:": return try call.rounded(.towardZero)
        case "sum:": return try AggregateFunctions.sum(call.list(), in: name)
        case "count:": return Int64(call.list().count)
        case "min:": return try AggregateFunctions.minimum(call.list())
        case "max:": return try AggregateFunctions.maximum(call.list())
        case "average:": return try AggregateFunctions.average(call.list(), in: name)
        case "median:": return try AggregateFunctions.median(call.list(), in: name)
        case "mode:": return AggregateFunctions.mode(call.list())
        case "stddev:": return try AggregateFunctions.standardDeviation(call.list(), in: name)
        case "bitwiseAnd:with:": return try call.integers { $0 & $1 }
        case "bitwiseOr:with:": return try call.integers { $0 | $1 }
        case "bitwiseXor:with:": return try call.integers { $0 ^ $1 }
        case "leftshift:by:": return try call.integers { $0 << $1 }
        case "rightshift:by:": return try call.integers { $0 >> $1 }
        case "onesComplement:": return try call.integer { ~$0 }
        case "uppercase:": return try call.string { $0.uppercased() }
        case "lowercase:": return try call.string { $0.lowercased() }
        case "length:": return try call.string { Int64($0.utf16.count) }
        case "now":
            try call.expect(0)
            return Date()
        case "noindex:":
            try call.expect(1)
            return arguments[0]
        case "castObject:toType:":
            try call.expect(2)
            return try CastEvaluation.cast(call.arguments[0], to: call.arguments[1])
        default:
            throw CoreDataError(.invalidPredicate, "Unknown function '\(name)'", key: name)
        }
    }
}

/// One call's arguments, with the checks and conversions the functions share.
private struct FunctionCall {
    let name: String
    let arguments: [Any?]

    func expect(_ count: Int) throws {
        guard arguments.count == count else {
            throw CoreDataError(
                .invalidPredicate,
                "The function '\(name)' takes \(count) argument\(count == 1 ? "" : "s"), not \(arguments.count)",
                key: name
            )
        }
    }

    private func number(_ value: Any) throws -> NumericValue {
        guard let number = NumericValue(any: value) else { throw wrongType(value, wanted: "numbers") }
        return number
    }

    private func wrongType(_ value: Any, wanted: String) -> CoreDataError {
        CoreDataError(.invalidPredicate, "The function '\(name)' takes \(wanted), not a value of type \(type(of: value))", key: name)
    }

    // MARK: - Shapes

    func numbers(_ body: (NumericValue, NumericValue) -> NumericValue?) throws -> Any? {
        try expect(2)
        guard let left = arguments[0], let right = arguments[1] else { return nil }
        return body(try number(left), try number(right))?.anyValue
    }

    func number(_ body: (NumericValue) -> NumericValue) throws -> Any? {
        try expect(1)
        guard let value = arguments[0] else { return nil }
        return body(try number(value)).anyValue
    }

    func double(_ body: (Double) -> Double) throws -> Any? {
        try expect(1)
        guard let value = arguments[0] else { return nil }
        return body(try number(value).doubleValue)
    }

    func rounded(_ rule: FloatingPointRoundingRule) throws -> Any? {
        try expect(1)
        guard let value = arguments[0] else { return nil }
        let number = try number(value)
        if case .integer = number { return number.anyValue }
        return number.doubleValue.rounded(rule)
    }

    func integers(_ body: (Int64, Int64) -> Int64) throws -> Any? {
        try expect(2)
        guard let left = arguments[0], let right = arguments[1] else { return nil }
        return body(try integer(left), try integer(right))
    }

    func integer(_ body: (Int64) -> Int64) throws -> Any? {
        try expect(1)
        guard let value = arguments[0] else { return nil }
        return body(try integer(value))
    }

    private func integer(_ value: Any) throws -> Int64 {
        guard let whole = try number(value).exactInteger else { throw wrongType(value, wanted: "whole numbers") }
        return whole
    }

    func string(_ body: (String) -> Any) throws -> Any? {
        try expect(1)
        guard let value = arguments[0] else { return nil }
        guard let text = PredicateEvaluator.string(value) else { throw wrongType(value, wanted: "strings") }
        return body(text)
    }

    /// The values a statistics function works on: the elements of its one collection
    /// argument, or its arguments (collections among them flattened), without `nil`s.
    func list() -> [Any] {
        arguments.flatMap { argument -> [Any] in
            if let collection = EvaluatedCollection(argument) { return collection.nonNilElements }
            return argument.map { [$0] } ?? []
        }
    }

    // MARK: - Dates

    /// `date + seconds` or `seconds + date`; `nil` when neither argument is a date.
    func addingDates() throws -> Any?? {
        guard arguments.count == 2 else { return nil }
        switch (date(arguments[0]), date(arguments[1])) {
        case let (date?, nil):
            guard let seconds = arguments[1] else { return .some(nil) }
            return .some(date.addingTimeInterval(try number(seconds).doubleValue))
        case let (nil, date?):
            guard let seconds = arguments[0] else { return .some(nil) }
            return .some(date.addingTimeInterval(try number(seconds).doubleValue))
        case (_?, _?): throw wrongType(arguments[1]!, wanted: "a date and a number of seconds")
        case (nil, nil): return nil
        }
    }

    /// `date - seconds` (a date) or `date - date` (seconds); `nil` when the first argument
    /// is not a date.
    func subtractingDates() throws -> Any?? {
        guard arguments.count == 2, let start = date(arguments[0]) else { return nil }
        guard let other = arguments[1] else { return .some(nil) }
        if let end = date(other) { return .some(start.timeIntervalSince(end)) }
        return .some(start.addingTimeInterval(-(try number(other).doubleValue)))
    }

    private func date(_ value: Any?) -> Date? {
        switch value {
        case let date as Date: return date
        case let constant as CDValue:
            if case .date(let date) = constant { return date }
            return nil
        default: return nil
        }
    }
}
