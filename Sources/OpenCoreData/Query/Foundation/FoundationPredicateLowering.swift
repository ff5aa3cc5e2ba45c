import Foundation

// MARK: - Public entry point

extension CDPredicateFormatParsing {
    /// Lowers a Foundation `#Predicate` over a typed `ManagedObject` subclass to the
    /// predicate tree the format language gives, so compile-time checked predicates work
    /// wherever a `CDPredicate` does (fetch requests, `evaluate(with:)`, the SQL store).
    ///
    /// Key paths are named through the class's `@Managed` properties
    /// (`ManagedObject.propertyName(for:)`). For example:
    ///
    /// ```swift
    /// let predicate = try CDPredicate(#Predicate<Item> { $0.title == "Milk" && $0.order > 2 })
    /// predicate.predicateFormat   // title == "Milk" AND order > 2
    /// ```
    ///
    /// Called on a subclass (`CDComparisonPredicate(…)`), it also throws when the lowered
    /// predicate is of another kind.
    ///
    /// - Throws: `.invalidPredicate` naming the part that has no Core Data form: a key path
    ///   that is not a `@Managed` property, a property read from a captured value, a
    ///   constant that is not a `CDValue`, or an unsupported `PredicateExpressions` type.
    public init<Root: ManagedObject>(_ predicate: Predicate<Root>) throws {
        let scope = PredicateLoweringScope(evaluatedObject: predicate.variable)
        let lowered = try scope.predicate(predicate.expression)
        guard let typed = lowered as? Self else {
            throw CoreDataError(
                .invalidPredicate,
                "The #Predicate lowers to a \(type(of: lowered)) (\(lowered.predicateFormat)), not a \(Self.self)"
            )
        }
        self = typed
    }
}

// MARK: - Lowering protocol

/// A `PredicateExpressions` node with a Core Data form: as a value (`CDExpression`) and
/// as a condition (`CDPredicate`). Every supported node conforms unconditionally, so an
/// unsupported node is found by a failed cast and reported, never trapped on.
protocol FoundationPredicateLowerable {
    /// The node as a value (a key path, a constant, a function…).
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression
    /// The node as a condition.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate
}

/// A node that is naturally a value: as a condition it must equal `YES`.
protocol LoweredAsValue: FoundationPredicateLowerable {}

extension LoweredAsValue {
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        try loweredExpression(in: scope).equalTo(.bool(true))
    }
}

/// A node that is naturally a condition: as a value it is `TERNARY(condition, YES, NO)`.
protocol LoweredAsCondition: FoundationPredicateLowerable {}

extension LoweredAsCondition {
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        CDExpression(forConditional: try loweredPredicate(in: scope), trueExpression: .constant(true), falseExpression: .constant(false))
    }
}

// MARK: - Errors

extension CoreDataError {
    /// A `#Predicate` part that has no Core Data form.
    static func unloweredPredicate(_ message: String) -> CoreDataError {
        CoreDataError(.invalidPredicate, "#Predicate: \(message)")
    }
}
