import Foundation

/// The `havingPredicate` filters the grouped dictionaries, so each key path it reads must
/// start at one of their keys (the names in `propertiesToFetch`): any other key would read
/// nil from every dictionary and silently match nothing. Checked when the fetch is
/// resolved, so both stores throw the typed error every other unknown key gets.
extension DictionaryFetch {
    static func checkKeys(of having: CDPredicate, columns: [Column]) throws {
        let names = Set(columns.map(\.name))
        try check(having, names)
    }

    private static func check(_ predicate: CDPredicate, _ names: Set<String>) throws {
        switch predicate.kind {
        case .constant:
            return
        case .comparison(let comparison):
            try check(comparison.leftExpression, names)
            try check(comparison.rightExpression, names)
        case .compound(let compound):
            for subpredicate in compound.subpredicates { try check(subpredicate, names) }
        }
    }

    private static func check(_ expression: CDExpression, _ names: Set<String>) throws {
        switch expression.kind {
        case .keyPath(let path):
            let first = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? path
            guard names.contains(first) else {
                // A key path reads "parent" then "key", never a column named "parent.key".
                let hint = names.contains(path) ? "; a column named with dots cannot be read by key path, so name it with an ExpressionDescription" : ""
                throw CoreDataError(.invalidFetchRequest, "The havingPredicate reads '\(path)', which is not a key of the fetched dictionaries (\(names.sorted().joined(separator: ", ")))\(hint).", key: path)
            }
        case .constantValue, .evaluatedObject, .variable, .anyKey:
            return
        case .member(let base, _):
            try check(base, names)
        case .index(let base, let index):
            try check(base, names)
            if case .expression(let position) = index { try check(position, names) }
        case .function(_, let arguments), .aggregate(let arguments):
            for argument in arguments { try check(argument, names) }
        case .customFunction(let target, _, let arguments):
            for argument in [target] + arguments { try check(argument, names) }
        case .subquery(let collection, _, let predicate):
            try check(collection, names)
            try check(predicate, names)
        case .conditional(let predicate, let whenTrue, let whenFalse):
            try check(predicate, names)
            try check(whenTrue, names)
            try check(whenFalse, names)
        case .unionSet(let left, let right), .intersectSet(let left, let right), .minusSet(let left, let right):
            try check(left, names)
            try check(right, names)
        }
    }
}
