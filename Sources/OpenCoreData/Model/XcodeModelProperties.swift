import Foundation

/// Builds attributes and relationships from the XML attributes of `<attribute>` and
/// `<relationship>` elements in an Xcode model's `contents` file.
enum XcodeModelProperties {
    /// Where an element was read, so errors can point at it.
    struct Location {
        var path: String
        var line: Int

        func error(_ message: String, key: String? = nil) -> CoreDataError {
            CoreDataError(.invalidModel, "\(message) (\(path), line \(line))", key: key)
        }
    }

    // MARK: - Attributes

    /// An attribute from an `<attribute>` element of entity `entityName`.
    static func attribute(_ xml: [String: String], entityName: String, at location: Location) throws -> AttributeDescription {
        guard let name = xml["name"], !name.isEmpty else {
            throw location.error("Entity '\(entityName)' has an attribute without a name.")
        }
        let label = "Attribute '\(entityName).\(name)'"
        let typeName = xml["attributeType"] ?? "Undefined"
        guard let type = AttributeType(xcodeName: typeName) else {
            throw location.error("\(label) has unknown attribute type '\(typeName)'.", key: name)
        }
        let attribute = AttributeDescription(
            name: name, type: type, isOptional: isYes(xml["optional"]), isTransient: isYes(xml["transient"]))
        readCommon(xml, into: attribute)
        attribute.isIndexed = isYes(xml["indexed"])
        attribute.allowsExternalBinaryDataStorage = isYes(xml["allowsExternalBinaryDataStorage"])
        attribute.preservesValueInHistoryOnDeletion = isYes(xml["preserveAfterDeletion"])
        attribute.valueTransformerName = nonEmpty(xml["valueTransformerName"])
        attribute.attributeValueClassName = nonEmpty(xml["customClassName"])
        attribute.regularExpression = nonEmpty(xml["regularExpressionString"])
        try readRange(xml, into: attribute, label: label, at: location)
        if let text = xml["defaultValueString"] ?? (type == .date ? xml["defaultDateTimeInterval"] : nil) {
            attribute.defaultValue = try defaultValue(text, type: type, label: label, key: name, at: location)
        }
        return attribute
    }

    /// Min/max: lengths for strings and binary data, date intervals for dates, values for numbers.
    private static func readRange(_ xml: [String: String], into attribute: AttributeDescription, label: String, at location: Location) throws {
        func number(_ key: String) throws -> Double? {
            guard let text = nonEmpty(xml[key]) else { return nil }
            guard let value = Double(text) else {
                throw location.error("\(label) has \(key) '\(text)', which is not a number.", key: attribute.name)
            }
            return value
        }
        func length(_ key: String) throws -> Int? {
            guard let text = nonEmpty(xml[key]) else { return nil }
            guard let value = integer(text).flatMap(Int.init(exactly:)), value >= 0 else {
                throw location.error("\(label) has \(key) '\(text)', which is not a length.", key: attribute.name)
            }
            return value
        }
        switch attribute.attributeType {
        case .string, .binaryData:
            attribute.minLength = try length("minValueString")
            attribute.maxLength = try length("maxValueString")
        case .date:
            attribute.minValue = try number("minDateTimeInterval") ?? number("minValueString")
            attribute.maxValue = try number("maxDateTimeInterval") ?? number("maxValueString")
        default:
            if attribute.attributeType.isNumeric {
                attribute.minValue = try number("minValueString")
                attribute.maxValue = try number("maxValueString")
            }
        }
    }

    /// The typed default value that `text` describes for an attribute of `type`.
    static func defaultValue(_ text: String, type: AttributeType, label: String, key: String, at location: Location) throws -> (any Sendable)? {
        func bad() -> CoreDataError {
            location.error("\(label) has default value '\(text)', which is not a valid \(type.xcodeName).", key: key)
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch type {
        case .string:
            return text
        case .integer16:
            guard let value = integer(trimmed).flatMap(Int16.init(exactly:)) else { throw bad() }
            return value
        case .integer32:
            guard let value = integer(trimmed).flatMap(Int32.init(exactly:)) else { throw bad() }
            return value
        case .integer64:
            guard let value = integer(trimmed) else { throw bad() }
            return value
        case .double:
            guard let value = Double(trimmed) else { throw bad() }
            return value
        case .float:
            guard let value = Float(trimmed) else { throw bad() }
            return value
        case .decimal:
            guard let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) else { throw bad() }
            return value
        case .boolean:
            switch trimmed.lowercased() {
            case "yes", "true", "1": return true
            case "no", "false", "0": return false
            default: throw bad()
            }
        case .date:
            guard let interval = Double(trimmed) else { throw bad() }
            return Date(timeIntervalSinceReferenceDate: interval)
        case .uuid:
            guard let value = UUID(uuidString: trimmed) else { throw bad() }
            return value
        case .uri:
            guard let value = URL(string: trimmed) else { throw bad() }
            return value
        case .binaryData, .transformable, .objectID, .undefined:
            return nil
        }
    }

    /// An integer written as digits, or as a decimal number with no fraction ("2.0").
    private static func integer(_ text: String) -> Int64? {
        if let value = Int64(text) { return value }
        guard let value = Double(text), value.rounded() == value else { return nil }
        return Int64(exactly: value)
    }

    // MARK: - Relationships

    /// A relationship from a `<relationship>` element; its destination and inverse are
    /// set by name and wired up when the model is frozen.
    static func relationship(_ xml: [String: String], entityName: String, at location: Location) throws -> RelationshipDescription {
        guard let name = xml["name"], !name.isEmpty else {
            throw location.error("Entity '\(entityName)' has a relationship without a name.")
        }
        let label = "Relationship '\(entityName).\(name)'"
        let ruleName = xml["deletionRule"] ?? xml["deleteRule"] ?? "Nullify"
        guard let rule = DeleteRule(xcodeName: ruleName) else {
            throw location.error("\(label) has unknown delete rule '\(ruleName)'.", key: name)
        }
        func count(_ key: String) throws -> Int? {
            guard let text = nonEmpty(xml[key]) else { return nil }
            guard let value = Int(text), value >= 0 else {
                throw location.error("\(label) has \(key) '\(text)', which is not a count.", key: name)
            }
            return value
        }
        let toMany = isYes(xml["toMany"])
        let relationship = RelationshipDescription(
            name: name,
            toMany: toMany,
            isOrdered: isYes(xml["ordered"]),
            isOptional: isYes(xml["optional"]),
            deleteRule: rule,
            minCount: try count("minCount") ?? 0,
            maxCount: toMany ? (try count("maxCount") ?? 0) : 1)
        relationship.isTransient = isYes(xml["transient"])
        relationship.destinationEntityName = nonEmpty(xml["destinationEntity"])
        relationship.inverseName = nonEmpty(xml["inverseName"])
        readCommon(xml, into: relationship)
        return relationship
    }

    // MARK: - Shared

    private static func readCommon(_ xml: [String: String], into property: PropertyDescription) {
        property.renamingIdentifier = nonEmpty(xml["elementID"])
        property.versionHashModifier = nonEmpty(xml["versionHashModifier"])
    }

    /// Xcode writes booleans as "YES" (and usually leaves "NO" out).
    static func isYes(_ value: String?) -> Bool {
        value == "YES" || value == "yes" || value == "true"
    }

    static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
