import Foundation

/// Limits the parser enforces before it recurses or grows, so hostile input fails
/// with an error instead of exhausting memory or the stack.
enum PredicateLimits {
    /// The longest format string accepted, in UTF-8 bytes (64 KiB).
    static let maximumFormatLength = 64 * 1024
    /// The deepest nesting: each `(`, `{`, `[`, `NOT`, unary `-`, function call, `CAST` and
    /// `FUNCTION` counts one level, each `SUBQUERY` and `TERNARY` two, and each binary operator
    /// (or wrapping `.key`) one more for the tree level it adds. The predicate's canonical
    /// form must fit too, so that it always parses back.
    static let maximumDepth = 100
    /// The most comparisons and constant predicates in one format string.
    static let maximumTermCount = 10_000
}

/// Builds the `.invalidPredicate` errors of the lexer and parser.
enum PredicateSyntaxError {
    /// An error naming the problem, its offset (in Unicode scalars) and an excerpt of the format.
    static func make(_ problem: String, offset: Int?, format: String) -> CoreDataError {
        var message = "Unable to parse the predicate format \"\(excerpt(of: format))\": \(problem)"
        if let offset { message += " at offset \(offset)" }
        return CoreDataError(.invalidPredicate, message, offset: offset)
    }

    /// A token as error messages quote it.
    static func describe(_ token: PredicateToken) -> String {
        token.isEnd ? "end of input" : "'\(token.text)'"
    }

    /// The format, cut to a readable length.
    private static func excerpt(of format: String) -> String {
        let limit = 200
        guard format.unicodeScalars.count > limit else { return format }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: format.unicodeScalars.prefix(limit))
        return String(view) + "…"
    }
}
