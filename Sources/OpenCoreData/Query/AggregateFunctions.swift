import Foundation

/// Statistics over a list of values, shared by the collection operators (`@sum`, `@avg`,
/// `@min`, `@max`) and the functions (`sum:`, `average:`, `min:`, `max:`, `median:`,
/// `mode:`, `stddev:`). Callers drop `nil`s first.
///
/// - `sum`: `0` for an empty list; the exact integer total when every value is an integer
///   (whatever their order; an error when it does not fit 64 bits), a decimal for
///   integers and decimals, else a double.
/// - `average`, `stddev` (population standard deviation): doubles; `nil` when empty. The
///   average is the same whatever the order of the values.
/// - `median`: the middle value of the sorted numbers, or the mean of the two middle
///   ones for an even count; `nil` when empty.
/// - `minimum`, `maximum`: by `ValueComparison.sortOrder` (so strings and dates work
///   too, and a NaN is the smallest number); `nil` when empty.
/// - `mode`: the most frequent values, in order of first appearance; empty when empty.
package enum AggregateFunctions {
    package static func sum(_ values: [Any], in context: String) throws -> Any {
        let numbers = try numbers(values, in: context)
        var integers: [Int64] = []
        integers.reserveCapacity(numbers.count)
        for case .integer(let value) in numbers { integers.append(value) }
        if integers.count == numbers.count { return try integerSum(integers, in: context) }
        var total = NumericValue.integer(0)
        for number in numbers { total = .add(total, number) }
        return total.anyValue
    }

    /// The exact total of `integers`, the same in any order (summed in 128 bits).
    ///
    /// - Throws: `integerTotal(_:in:)`'s error when the total does not fit 64 bits.
    package static func integerSum(_ integers: [Int64], in context: String) throws -> Int64 {
        var total: Int128 = 0
        for value in integers { total += Int128(value) }
        return try integerTotal(total, in: context)
    }

    /// An integer total computed in 128 bits, as a 64-bit integer.
    ///
    /// - Throws: `.validationNumberTooLarge` when it does not fit (in memory and in both
    ///   stores: this error, never a double or SQLite's "integer overflow").
    package static func integerTotal(_ total: Int128, in context: String) throws -> Int64 {
        guard let exact = Int64(exactly: total) else {
            throw CoreDataError(.validationNumberTooLarge, "The integer total of \(context) is outside the 64-bit integer range.")
        }
        return exact
    }

    package static func average(_ values: [Any], in context: String) throws -> Any? {
        let numbers = try numbers(values, in: context)
        guard !numbers.isEmpty else { return nil }
        // The same in any order, as a to-many's members come in set order in memory and
        // in row order from SQL: integers summed exactly, other numbers smallest first.
        var integers: Int128 = 0
        var integerCount = 0
        for case .integer(let value) in numbers {
            integers += Int128(value)
            integerCount += 1
        }
        if integerCount == numbers.count { return Double(integers) / Double(numbers.count) }
        return numbers.map(\.doubleValue).sorted().reduce(0.0, +) / Double(numbers.count)
    }

    package static func minimum(_ values: [Any]) throws -> Any? {
        try extreme(values, keeping: .orderedAscending)
    }

    package static func maximum(_ values: [Any]) throws -> Any? {
        try extreme(values, keeping: .orderedDescending)
    }

    package static func median(_ values: [Any], in context: String) throws -> Any? {
        let sorted = try numbers(values, in: context).sorted { ValueComparison.sortOrder(constant($0), constant($1)) == .orderedAscending }
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        if sorted.count % 2 == 1 { return sorted[middle].anyValue }
        return (sorted[middle - 1].doubleValue + sorted[middle].doubleValue) / 2
    }

    package static func mode(_ values: [Any]) -> EvaluatedCollection {
        var groups: [(value: Any, count: Int)] = []
        for value in values {
            if let index = groups.firstIndex(where: { ValueComparison.isEqual($0.value, value) }) {
                groups[index].count += 1
            } else {
                groups.append((value, 1))
            }
        }
        let highest = groups.map(\.count).max() ?? 0
        return EvaluatedCollection(groups.filter { $0.count == highest }.map(\.value), isOrdered: true)
    }

    package static func standardDeviation(_ values: [Any], in context: String) throws -> Any? {
        let doubles = try numbers(values, in: context).map(\.doubleValue)
        guard !doubles.isEmpty else { return nil }
        let mean = doubles.reduce(0, +) / Double(doubles.count)
        let variance = doubles.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(doubles.count)
        return variance.squareRoot()
    }

    // MARK: - Helpers

    /// Every value as a number; a value that is not one is an error naming `context`.
    private static func numbers(_ values: [Any], in context: String) throws -> [NumericValue] {
        try values.map { value in
            guard let number = NumericValue(any: value) else {
                throw CoreDataError(
                    .invalidPredicate,
                    "\(context) needs numbers, but got a value of type \(type(of: value))"
                )
            }
            return number
        }
    }

    private static func extreme(_ values: [Any], keeping wanted: ComparisonResult) throws -> Any? {
        var best: (raw: Any, value: CDValue)?
        for raw in values {
            guard let value = CDValue(converting: raw) else {
                throw CoreDataError(.invalidPredicate, "Cannot order a value of type \(type(of: raw)) for @min or @max")
            }
            if let current = best, ValueComparison.sortOrder(value, current.value) != wanted { continue }
            best = (raw, value)
        }
        return best?.raw
    }

    private static func constant(_ number: NumericValue) -> CDValue {
        switch number {
        case .integer(let value): return .int64(value)
        case .double(let value): return .double(value)
        case .decimal(let value): return .decimal(value)
        }
    }
}
