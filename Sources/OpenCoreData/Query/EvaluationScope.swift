import Foundation

/// What an expression is evaluated against: the object (`SELF`), the variables bound so
/// far (substitution variables, `SUBQUERY` iterators) and how deep the evaluation has
/// recursed, so a tree nested too deeply fails with an error instead of overflowing the
/// stack.
struct EvaluationScope {
    /// The object a key path is read from and `SELF` stands for.
    let object: Any?
    /// Values of `$variables` by name (without `$`).
    let variables: [String: Any?]
    /// The nesting level of the node being evaluated.
    let depth: Int

    /// The deepest nesting of predicates and expressions evaluated: deeper than the
    /// parser accepts, shallow enough for a secondary thread's stack.
    static let maximumDepth = 400

    init(object: Any?, variables: [String: Any?] = [:], depth: Int = 0) {
        self.object = object
        self.variables = variables
        self.depth = depth
    }

    /// The scope for a node nested one level deeper.
    ///
    /// - Throws: `.invalidPredicate` past `maximumDepth`.
    func nested() throws -> EvaluationScope {
        guard depth < Self.maximumDepth else {
            throw CoreDataError(
                .invalidPredicate,
                "The predicate is nested more than \(Self.maximumDepth) levels deep; it cannot be evaluated"
            )
        }
        return EvaluationScope(object: object, variables: variables, depth: depth + 1)
    }

    /// The scope with `name` bound to `value` (a `SUBQUERY` iteration).
    func binding(_ name: String, to value: Any?) -> EvaluationScope {
        var variables = variables
        variables[name] = .some(value)
        return EvaluationScope(object: object, variables: variables, depth: depth)
    }

    /// The value of `$name`.
    ///
    /// - Throws: `.invalidPredicate` naming the variable when it is not bound.
    func value(ofVariable name: String) throws -> Any? {
        guard let bound = variables[name] else {
            throw CoreDataError(
                .invalidPredicate,
                "The variable $\(name) has no value; substitute it (withSubstitutionVariables) or bind it before evaluating",
                key: name
            )
        }
        return bound
    }
}
