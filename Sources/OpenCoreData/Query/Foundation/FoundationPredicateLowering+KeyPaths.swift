import Foundation

// MARK: - Key paths

extension PredicateExpressions.KeyPath: FoundationPredicateLowerable {
    /// A `@Managed` property read from the root (`title`, `parent.title`, `$x.title`), or a
    /// collection's `count` (`children.@count`, `length:(title)`), `first` / `last`
    /// (`[FIRST]`, `[LAST]`).
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        let base = try keyPathBase(in: scope)
        switch kind {
        case .collectionCount?:
            return count(of: base)
        case .collectionIsEmpty?:
            return CDExpression(forConditional: try loweredPredicate(in: scope), trueExpression: .constant(true), falseExpression: .constant(false))
        case .collectionFirst?, .bidirectionalCollectionLast?:
            return CDExpression(.index(base, kind == .collectionFirst ? .first : .last))
        case nil:
            guard Root.Output.self is ManagedObject.Type else {
                throw CoreDataError.unloweredPredicate("the key path \(keyPath) on \(Root.Output.self) has no Core Data form")
            }
            guard let name = ManagedPropertyNames.name(of: keyPath) else {
                throw CoreDataError.unloweredPredicate("the key path \(keyPath) is not a @Managed property")
            }
            return base.appendingKeyPath(name)
        }
    }

    /// A Bool property must be `YES`; `isEmpty` is a count of zero.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        if kind == .collectionIsEmpty {
            return count(of: try keyPathBase(in: scope)).equalTo(0)
        }
        return try loweredExpression(in: scope).equalTo(.bool(true))
    }

    /// The lowered root. A key path on a captured value (`limits.highest`) is refused
    /// rather than read while lowering: capturing the value it reads says the same plainly.
    private func keyPathBase(in scope: PredicateLoweringScope) throws -> CDExpression {
        if root is any CapturedConstant {
            throw CoreDataError.unloweredPredicate("the key path \(keyPath) reads a property of a captured value; capture the property's value itself (let title = item.title) instead")
        }
        return try scope.expression(root)
    }

    /// A collection's size: `@count` of a to-many, `length:` of a string.
    private func count(of base: CDExpression) -> CDExpression {
        if Root.Output.self is any StringProtocol.Type {
            return CDExpression(forFunction: "length:", arguments: [base])
        }
        return base.appendingKeyPath("@count")
    }
}

/// A `PredicateExpressions.Value`: a literal or a value the closure captured.
private protocol CapturedConstant {}
extension PredicateExpressions.Value: CapturedConstant {}

extension CDExpression {
    /// This expression followed by `.key`, built as the format parser builds `a.b.key`.
    func appendingKeyPath(_ key: String) -> CDExpression {
        switch kind {
        case .evaluatedObject: return .keyPath(key)
        case .keyPath(let path): return .keyPath(path + "." + key)
        case .member(let inner, let path): return CDExpression(.member(inner, keyPath: path + "." + key))
        default: return CDExpression(.member(self, keyPath: key))
        }
    }

    /// Whether this expression reads further along `base` (`parent.title` along `parent`),
    /// and so is nil whenever `base` is.
    func extendsKeyPath(of base: CDExpression) -> Bool {
        switch (kind, base.kind) {
        case let (.keyPath(path), .keyPath(prefix)):
            return path.hasPrefix(prefix + ".")
        case let (.member(inner, path), .member(baseInner, prefix)):
            return inner == baseInner && path.hasPrefix(prefix + ".")
        case let (.member(inner, _), _):
            return inner == base
        default:
            return false
        }
    }
}

// MARK: - Optionals

extension PredicateExpressions.OptionalFlatMap: LoweredAsValue {
    /// `parent?.title` is `parent.title` (a key path through nil is nil). Any other
    /// transform becomes `TERNARY(parent == nil, nil, transform)` so nil still propagates.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        let unwrapped = try scope.expression(wrapped)
        let transformed = try scope.binding(variable, to: unwrapped).expression(transform)
        if transformed.extendsKeyPath(of: unwrapped) { return transformed }
        return CDExpression(forConditional: unwrapped.equalTo(.null), trueExpression: .constant(.null), falseExpression: transformed)
    }
}

extension PredicateExpressions.NilCoalesce: FoundationPredicateLowerable {
    /// `a ?? b` is `TERNARY(a != nil, a, b)`.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        let optional = try scope.expression(lhs)
        return CDExpression(forConditional: optional.notEqualTo(.null), trueExpression: optional, falseExpression: try scope.expression(rhs))
    }

    /// As a condition with a constant default, without `TERNARY`: `a ?? false` is
    /// `a == YES`, `a ?? true` is `a == nil OR a == YES`; and for an optional chain
    /// ending in a condition, `item.parent?.title.contains("x") ?? false` is
    /// `parent != nil AND parent.title CONTAINS "x"`.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        guard let fallback = (rhs as? PredicateExpressions.Value<Bool>)?.value else {
            return try loweredExpression(in: scope).equalTo(.bool(true))
        }
        if let chain = lhs as? any OptionalCondition, let (unwrapped, condition) = try chain.loweredOptionalCondition(in: scope) {
            return fallback ? (unwrapped.equalTo(.null) || condition) : (unwrapped.notEqualTo(.null) && condition)
        }
        let optional = try scope.expression(lhs)
        return fallback ? (optional.equalTo(.null) || optional.equalTo(.bool(true))) : optional.equalTo(.bool(true))
    }
}

/// An optional chain whose last step is a condition (`parent?.title.contains("x")`).
private protocol OptionalCondition {
    /// The unwrapped value and the condition on it, or nil when the chain ends in a value
    /// (a Bool property read along the chain is a value: `parent?.done` is `parent.done`).
    func loweredOptionalCondition(in scope: PredicateLoweringScope) throws -> (unwrapped: CDExpression, condition: CDPredicate)?
}

extension PredicateExpressions.OptionalFlatMap: OptionalCondition {
    fileprivate func loweredOptionalCondition(in scope: PredicateLoweringScope) throws -> (unwrapped: CDExpression, condition: CDPredicate)? {
        guard RHS.Output.self == Bool.self else { return nil }
        let unwrapped = try scope.expression(wrapped)
        let inner = scope.binding(variable, to: unwrapped)
        if try inner.expression(transform).extendsKeyPath(of: unwrapped) { return nil }
        return (unwrapped, try inner.predicate(transform))
    }
}

extension PredicateExpressions.ForcedUnwrap: LoweredAsValue {
    /// `a!` is `a`: where Swift would fail on nil, Core Data compares the nil.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        try scope.expression(inner)
    }
}

// MARK: - Subscripts

extension PredicateExpressions.CollectionIndexSubscript: LoweredAsValue {
    /// `items[2]` of an ordered to-many is `items[2]`.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        CDExpression(.index(try scope.expression(wrapped), .expression(try scope.expression(index))))
    }
}
