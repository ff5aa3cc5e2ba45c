import Foundation

/// What the variables of a `#Predicate` stand for while it is lowered: the evaluated
/// object (`SELF`), a `SUBQUERY` iteration variable (`$x`), or an optional's unwrapped
/// value (the expression it was read from).
struct PredicateLoweringScope {
    /// Each bound variable's Core Data expression.
    private var bindings: [PredicateExpressions.VariableID: CDExpression]
    /// How many subqueries enclose the node being lowered; names their variables.
    private var subqueryDepth = 0

    /// The scope of a predicate's body: its input variable is `SELF`.
    init<Root>(evaluatedObject variable: PredicateExpressions.Variable<Root>) {
        bindings = [variable.key: .evaluatedObject]
    }

    /// The expression `variable` stands for; throws when it is bound nowhere.
    func expression(for key: PredicateExpressions.VariableID) throws -> CDExpression {
        guard let bound = bindings[key] else {
            throw CoreDataError.unloweredPredicate("a variable is used outside the closure that binds it")
        }
        return bound
    }

    /// This scope with `variable` also standing for `expression`.
    func binding<Value>(_ variable: PredicateExpressions.Variable<Value>, to expression: CDExpression) -> PredicateLoweringScope {
        var scope = self
        scope.bindings[variable.key] = expression
        return scope
    }

    /// The scope inside a subquery over one collection: `variable` is the iteration
    /// variable, named `$x` (`$x1`, `$x2`… when nested). Returns the scope and the name.
    func enteringSubquery<Value>(with variable: PredicateExpressions.Variable<Value>) -> (scope: PredicateLoweringScope, name: String) {
        let name = subqueryDepth == 0 ? "x" : "x\(subqueryDepth)"
        var scope = binding(variable, to: .variable(name))
        scope.subqueryDepth += 1
        return (scope, name)
    }

    // MARK: - Lowering children

    /// `node` as a value.
    func expression(_ node: some PredicateExpression) throws -> CDExpression {
        try lowerable(node).loweredExpression(in: self)
    }

    /// `node` as a condition.
    func predicate(_ node: some PredicateExpression) throws -> CDPredicate {
        try lowerable(node).loweredPredicate(in: self)
    }

    private func lowerable(_ node: some PredicateExpression) throws -> any FoundationPredicateLowerable {
        guard let lowerable = node as? any FoundationPredicateLowerable else {
            throw CoreDataError.unloweredPredicate("\(Self.shortName(of: type(of: node))) has no Core Data form")
        }
        return lowerable
    }

    /// A type's name without generic arguments (`PredicateExpressions.TypeCheck`).
    static func shortName(of type: Any.Type) -> String {
        let name = String(reflecting: type)
        let base = name.split(separator: "<", maxSplits: 1).first.map(String.init) ?? name
        return base.replacingOccurrences(of: "Foundation.", with: "").replacingOccurrences(of: "FoundationEssentials.", with: "")
    }
}
