import Foundation

// MARK: - Attribute types

extension AttributeType {
    /// The type as Xcode's model editor writes it in `attributeType` ("Integer 16", "Binary"...).
    public var xcodeName: String {
        switch self {
        case .integer16: return "Integer 16"
        case .integer32: return "Integer 32"
        case .integer64: return "Integer 64"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .boolean: return "Boolean"
        case .date: return "Date"
        case .binaryData: return "Binary"
        case .uuid: return "UUID"
        case .uri: return "URI"
        case .transformable: return "Transformable"
        case .objectID: return "ObjectID"
        case .undefined: return "Undefined"
        }
    }

    /// The type Xcode's `attributeType` string names, or nil for an unknown name.
    public init?(xcodeName: String) {
        guard let type = AttributeType.allCases.first(where: { $0.xcodeName == xcodeName }) else { return nil }
        self = type
    }
}

// MARK: - Delete rules

extension DeleteRule {
    /// The rule as Xcode writes it in `deletionRule` ("Nullify", "No Action"...).
    public var xcodeName: String {
        switch self {
        case .noAction: return "No Action"
        case .nullify: return "Nullify"
        case .cascade: return "Cascade"
        case .deny: return "Deny"
        }
    }

    /// The rule Xcode's `deletionRule` string names, or nil for an unknown name.
    public init?(xcodeName: String) {
        guard let rule = DeleteRule.allCases.first(where: { $0.xcodeName == xcodeName }) else { return nil }
        self = rule
    }
}
