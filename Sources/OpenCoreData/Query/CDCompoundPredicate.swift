import Foundation

/// `AND`, `OR` or `NOT` of other predicates: Core Data's `NSCompoundPredicate`.
///
/// An `AND` of no subpredicates is true, an `OR` of none is false; `NOT` of several
/// subpredicates negates their `AND`.
public final class CDCompoundPredicate: CDPredicate, @unchecked Sendable {
    // @unchecked Sendable: immutable; every stored property is a `let` of a Sendable type.

    /// How the subpredicates combine.
    public enum LogicalType: Sendable, Hashable, CaseIterable {
        case not
        case and
        case or
    }

    /// How the subpredicates combine.
    public let compoundPredicateType: LogicalType
    /// The combined predicates, in order.
    public let subpredicates: [CDPredicate]

    /// Combines `subpredicates` with `type`.
    public init(type: LogicalType, subpredicates: [CDPredicate]) {
        self.compoundPredicateType = type
        self.subpredicates = subpredicates
        super.init()
    }

    /// True when every subpredicate is.
    public convenience init(andPredicateWithSubpredicates subpredicates: [CDPredicate]) {
        self.init(type: .and, subpredicates: subpredicates)
    }

    /// True when any subpredicate is.
    public convenience init(orPredicateWithSubpredicates subpredicates: [CDPredicate]) {
        self.init(type: .or, subpredicates: subpredicates)
    }

    /// True when `subpredicate` is false.
    public convenience init(notPredicateWithSubpredicate subpredicate: CDPredicate) {
        self.init(type: .not, subpredicates: [subpredicate])
    }

    public override var kind: Kind { .compound(self) }
}
