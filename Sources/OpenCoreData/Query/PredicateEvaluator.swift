import Foundation

// MARK: - Public entry points

extension CDPredicate {
    /// Whether `object` — a `KeyValueCoding` object (such as a `ManagedObject`) or a
    /// `[String: Any]` dictionary — satisfies the predicate. A predicate that cannot be
    /// evaluated against the object (see `evaluateThrowing(with:)`) is not satisfied.
    public func evaluate(with object: Any?) -> Bool {
        (try? evaluateThrowing(with: object)) ?? false
    }

    /// Whether `object` satisfies the predicate with its `$variables` taken from
    /// `substitutionVariables` (names without `$`).
    public func evaluate(with object: Any?, substitutionVariables: [String: Any?]) -> Bool {
        (try? evaluateThrowing(with: object, substitutionVariables: substitutionVariables)) ?? false
    }

    /// Like `evaluate(with:substitutionVariables:)`, but reports why a predicate cannot be
    /// evaluated — a key read from a value that has no keys, an unknown property, an unbound
    /// variable, an unregistered `FUNCTION`, values of the wrong type — as `.invalidPredicate`.
    package func evaluateThrowing(with object: Any?, substitutionVariables: [String: Any?] = [:]) throws -> Bool {
        try PredicateEvaluator.evaluate(self, in: EvaluationScope(object: object, variables: substitutionVariables))
    }
}

extension CDExpression {
    /// The expression's value for `object`, as Core Data's `expressionValue(with:context:)`:
    /// `context` binds `$variables` (names without `$`). Collections come back as `[Any?]`,
    /// constants as Swift values.
    ///
    /// - Throws: `.invalidPredicate` when the expression cannot be evaluated (see
    ///   `CDPredicate.evaluate(with:)`).
    public func expressionValue(with object: Any?, context: [String: Any?] = [:]) throws -> Any? {
        EvaluatedCollection.plain(try PredicateEvaluator.value(of: self, in: EvaluationScope(object: object, variables: context)))
    }
}

// MARK: - Evaluation

/// In-memory evaluation of predicate and expression trees: used by `evaluate(with:)`, the
/// in-memory store, and fetches that merge pending changes. The SQL compiler follows the
/// same rules, listed here.
///
/// **Values.** Key paths read `KeyValueCoding` objects (managed objects, stored rows) and
/// `[String: Any]` dictionaries (`KeyPathReader`). A to-many step gives the collection of
/// values, flattened across several to-many steps, without `nil`s
/// (`children.children.title`); a key a managed object's entity lacks, or a key read from
/// a number or string, is an error. A managed object compares as its object ID.
///
/// **Comparisons** (`PredicateEvaluator+Comparison.swift`). `nil` equals only `nil` and
/// orders with nothing.
/// - `==`, `!=`: `ValueComparison` (numbers by value across types, strings by UTF-8
///   bytes, collections element by element); with `[c]`/`[d]` and two strings,
///   `StringMatching.equals` (other values ignore the options). `!=` is `NOT ==`.
/// - `<`, `<=`, `>`, `>=`: `ValueComparison.order`; with `[c]`/`[d]` and two strings, the
///   folded strings' bytes. Unrelated types, `nil` and NaN never match.
/// - `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`: `StringMatching`; false unless both
///   sides are strings. An invalid `MATCHES` pattern is an error, whatever the left side.
/// - `CONTAINS`: a left collection contains an element equal (as `==` with the options) to
///   the right; a left string contains the right string. `IN`: the mirror image; a right
///   dictionary offers its values. A `nil` side, or a string side with a non-string
///   other side, is false; a number or date where a collection is wanted is an error.
/// - `BETWEEN`: the right side is a two-element collection `{lo, hi}`;
///   `lo <= left <= hi` by `ValueComparison.order` (`nil` never matches). Any other right
///   side is an error, whatever the left side.
/// - `[n]` changes nothing.
///
/// **Modifiers.** `ANY`: at least one element of the left collection matches; `ALL`: every
/// element does (an empty collection: true). `nil` is an empty collection; a left side
/// that is not a collection is an error. `NONE` is `NOT ANY`.
///
/// **Expressions** (`PredicateEvaluator+Expressions.swift`).
/// - Constants; `SELF`; `$variables` (unbound: an error naming it); aggregates `{…}`
///   (ordered collections).
/// - Index access: `[SIZE]` counts the elements of any collection (`nil`s included, as
///   positions) or a dictionary's entries; `[FIRST]`, `[LAST]`, `[n]` need an ordered
///   collection (an array, an ordered relationship) and give `nil` out of range;
///   `['key']` reads a dictionary or object.
/// - `SUBQUERY(collection, $x, predicate)`: the elements for which the predicate holds
///   with `$x` bound to each (`SELF` stays the evaluated object; a `nil` collection is
///   empty). `TERNARY(predicate, a, b)` evaluates only the branch it picks.
/// - `UNION`, `INTERSECT`, `MINUS`: unordered collections without repeats (`nil` is empty).
/// - `FUNCTION(target, 'selector', …)`: a function registered with
///   `CDExpression.registerFunction(_:_:)` (unregistered: an error). `ANYKEY`: an error.
///
/// **Collection operators** (`CollectionOperators`): `@count` (collections and
/// dictionaries only; a key or operator after it reads the count, a number, so
/// `children.@count.@count` is an error, as in Foundation), `@sum` (0 when empty; integer for integers, decimal for integers
/// and decimals, else double), `@avg` (double, `nil` when empty), `@min`/`@max` (`nil`
/// when empty), `@distinctUnionOfObjects`, `@unionOfObjects`. `nil`s are ignored.
///
/// **Functions** (`FunctionEvaluation`, `CastEvaluation`), with NSExpression's names: a
/// `nil` operand gives `nil`; integer arithmetic stays integer unless it overflows (then
/// double); `divide:by:` always gives a double; dividing or taking a modulus by zero
/// gives `nil`; operands of the wrong type are errors.
///
/// **Limits.** Nothing traps. A tree nested so deeply that evaluating it would use more
/// than `EvaluationScope.stackBudget` of stack is an error. Every error is a
/// `CoreDataError` with code `.invalidPredicate`.
enum PredicateEvaluator {
    static func evaluate(_ predicate: CDPredicate, in scope: EvaluationScope) throws -> Bool {
        try scope.checkStack()
        switch predicate.kind {
        case .constant(let value):
            return value
        case .comparison(let comparison):
            return try evaluate(comparison, in: scope)
        case .compound(let compound):
            switch compound.compoundPredicateType {
            case .and:
                for subpredicate in compound.subpredicates where try !evaluate(subpredicate, in: scope) { return false }
                return true
            case .or:
                for subpredicate in compound.subpredicates where try evaluate(subpredicate, in: scope) { return true }
                return false
            case .not:
                for subpredicate in compound.subpredicates where try !evaluate(subpredicate, in: scope) { return true }
                return false
            }
        }
    }
}
