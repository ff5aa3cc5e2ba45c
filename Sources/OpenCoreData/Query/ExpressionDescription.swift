import Foundation

/// A computed column of a dictionary fetch: a name, an expression (an aggregate such as
/// `sum:` over a key path, a key path, or the evaluated object for its object ID) and
/// the type of its value — Core Data's `NSExpressionDescription`.
///
/// ```swift
/// let total = ExpressionDescription(name: "total")
/// total.expression = CDExpression(forFunction: "sum:", arguments: [.keyPath("amount")])
/// total.expressionResultType = .integer64
/// request.propertiesToFetch = ["category", total]
/// request.propertiesToGroupBy = ["category"]
/// ```
public final class ExpressionDescription: PropertyDescription, @unchecked Sendable {
    // @unchecked Sendable: configured before use and only read by fetches afterwards.

    /// What to compute.
    public var expression: CDExpression?
    /// The type the computed value is converted to; `.undefined` keeps it as computed
    /// (integers for integer sums and counts, doubles for averages).
    public var expressionResultType: AttributeType = .undefined

    /// A description with `name`; set `expression` before fetching.
    public init(name: String) {
        super.init(name: name, isOptional: true, isTransient: true)
    }
}
