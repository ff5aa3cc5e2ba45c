import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What one Xcode `contents` file describes, before it becomes a `ManagedObjectModel`.
struct XcodeModelContents {
    /// Entities in file order, sub-entities already attached to their parents.
    var entities: [EntityDescription] = []
    var configurations: [String: [String]] = [:]
    /// Xcode's "Identifier" of the model version (`userDefinedModelVersionIdentifier`).
    var versionIdentifier: String?
}

/// Reads the `contents` XML that Xcode writes inside a `.xcdatamodel` folder.
///
/// Handles entities, attributes, relationships, uniqueness constraints, fetch indexes,
/// user info and configurations. Fetch requests, fetched properties and the editor's
/// `<elements>` layout are skipped. Nothing is validated across entities here: relationships
/// keep their destination and inverse by name until the model is frozen.
final class XcodeModelParser: NSObject, XMLParserDelegate {
    private let path: String
    private var contents = XcodeModelContents()
    private var stack: [String] = []
    private var sawModel = false
    private var failure: CoreDataError?

    private var entity: EntityDescription?
    private var property: PropertyDescription?
    private var constraint: [String]?
    private var index: FetchIndexDescription?
    private var configuration: String?
    /// Each entity that names a parent, with the parent's name and the line it was read on.
    private var parents: [(entity: EntityDescription, parent: String, line: Int)] = []

    /// Elements whose whole subtree is skipped.
    private static let skipped: Set<String> = ["fetchRequest", "fetchedProperty", "elements"]

    private init(path: String) {
        self.path = path
    }

    // MARK: - Entry point

    /// Parses `data`, the `contents` file at `path` (used in error messages).
    ///
    /// - Throws: `CoreDataError.invalidModel` for malformed XML, a file that is not a
    ///   Core Data model, or an element that cannot be understood, with the line number.
    static func parse(_ data: Data, path: String) throws -> XcodeModelContents {
        let delegate = XcodeModelParser(path: path)
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let failure = delegate.failure { throw failure }
        // On Linux `parse()` may report success after recovering from an error; check both.
        if !parsed || parser.parserError != nil {
            throw delegate.malformed(parser.parserError, line: parser.lineNumber)
        }
        guard delegate.sawModel else {
            throw CoreDataError(.invalidModel, "The file \(path) is not a Core Data model: it has no <model> element.")
        }
        try delegate.attachSubentities()
        return delegate.contents
    }

    // MARK: - XMLParserDelegate

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        defer { stack.append(elementName) }
        guard failure == nil, !stack.contains(where: Self.skipped.contains) else { return }
        do {
            try start(elementName, attributeDict, at: XcodeModelProperties.Location(path: path, line: parser.lineNumber))
        } catch let error as CoreDataError {
            failure = error
            parser.abortParsing()
        } catch {
            failure = CoreDataError(.invalidModel, "\(error)")
            parser.abortParsing()
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard failure == nil else { return }
        failure = malformed(parseError, line: parser.lineNumber)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        _ = stack.popLast()
        guard failure == nil, !stack.contains(where: Self.skipped.contains) else { return }
        end(elementName)
    }

    /// The error for XML that cannot be parsed, explaining the common libxml2 error codes.
    private func malformed(_ error: Error?, line: Int) -> CoreDataError {
        let code = (error as NSError?)?.code ?? 0
        let reason: String
        switch code {
        case 4: reason = "the document is empty"
        case 5: reason = "the document ends before all elements are closed"
        case 9: reason = "it contains an invalid character"
        case 76: reason = "an end tag does not match its start tag"
        default: reason = "XML parser error \(code)"
        }
        return CoreDataError(.invalidModel, "The model file \(path) is not well-formed XML: \(reason) (line \(line)).")
    }

    // MARK: - Elements

    private func start(_ element: String, _ xml: [String: String], at location: XcodeModelProperties.Location) throws {
        let parent = stack.last
        if stack.isEmpty {
            guard element == "model" else {
                throw location.error("The file is not a Core Data model: its root element is <\(element)>, not <model>.")
            }
            sawModel = true
            contents.versionIdentifier = XcodeModelProperties.nonEmpty(xml["userDefinedModelVersionIdentifier"])
            return
        }
        switch (element, parent) {
        case ("entity", "model"?):
            entity = try makeEntity(xml, at: location)
        case ("attribute", "entity"?):
            guard let entity else { return }
            let attribute = try XcodeModelProperties.attribute(xml, entityName: entity.name, at: location)
            entity.properties.append(attribute)
            property = attribute
        case ("relationship", "entity"?):
            guard let entity else { return }
            let relationship = try XcodeModelProperties.relationship(xml, entityName: entity.name, at: location)
            entity.properties.append(relationship)
            property = relationship
        case ("uniquenessConstraint", "uniquenessConstraints"?):
            constraint = []
        case ("constraint", "uniquenessConstraint"?):
            if let value = XcodeModelProperties.nonEmpty(xml["value"]) { constraint?.append(value) }
        case ("fetchIndex", "entity"?):
            guard let entity else { return }
            let name = XcodeModelProperties.nonEmpty(xml["name"]) ?? "\(entity.name)Index\(entity.indexes.count + 1)"
            index = FetchIndexDescription(name: name, elements: [])
        case ("fetchIndexElement", "fetchIndex"?):
            // Expression-based elements (no `property`) have no equivalent here and are left out.
            if let name = XcodeModelProperties.nonEmpty(xml["property"]) {
                index?.elements.append(.init(propertyName: name, isAscending: xml["order"] != "descending"))
            }
        case ("entry", "userInfo"?):
            addUserInfo(key: xml["key"], value: xml["value"])
        case ("configuration", "model"?):
            guard let name = XcodeModelProperties.nonEmpty(xml["name"]) else {
                throw location.error("The model has a configuration without a name.")
            }
            configuration = name
            if contents.configurations[name] == nil { contents.configurations[name] = [] }
        case ("memberEntity", "configuration"?):
            if let configuration, let name = XcodeModelProperties.nonEmpty(xml["name"]) {
                contents.configurations[configuration, default: []].append(name)
            }
        default:
            break  // Unknown or editor-only elements are ignored.
        }
    }

    private func end(_ element: String) {
        switch element {
        case "entity":
            entity = nil
        case "attribute", "relationship":
            property = nil
        case "uniquenessConstraint":
            if let constraint, !constraint.isEmpty { entity?.uniquenessConstraints.append(constraint) }
            constraint = nil
        case "fetchIndex":
            if let index, !index.elements.isEmpty { entity?.indexes.append(index) }
            index = nil
        case "configuration":
            configuration = nil
        default:
            break
        }
    }

    private func makeEntity(_ xml: [String: String], at location: XcodeModelProperties.Location) throws -> EntityDescription {
        guard let name = XcodeModelProperties.nonEmpty(xml["name"]) else {
            throw location.error("The model has an entity without a name.")
        }
        let entity = EntityDescription(name: name, managedObjectClassName: XcodeModelProperties.nonEmpty(xml["representedClassName"]))
        entity.isAbstract = XcodeModelProperties.isYes(xml["isAbstract"])
        entity.renamingIdentifier = XcodeModelProperties.nonEmpty(xml["elementID"])
        entity.versionHashModifier = XcodeModelProperties.nonEmpty(xml["versionHashModifier"])
        if let parent = XcodeModelProperties.nonEmpty(xml["parentEntity"]) {
            parents.append((entity, parent, location.line))
        }
        contents.entities.append(entity)
        return entity
    }

    /// User info belongs to the element that encloses `<userInfo>`: a property or an entity.
    private func addUserInfo(key: String?, value: String?) {
        guard let key, stack.count >= 2 else { return }
        switch stack[stack.count - 2] {
        case "attribute", "relationship": property?.userInfo[key] = value ?? ""
        case "entity": entity?.userInfo[key] = value ?? ""
        default: break
        }
    }

    // MARK: - Inheritance

    private func attachSubentities() throws {
        var byName: [String: EntityDescription] = [:]
        for entity in contents.entities where byName[entity.name] == nil { byName[entity.name] = entity }
        for (entity, parentName, line) in parents {
            guard let parent = byName[parentName] else {
                throw CoreDataError(.invalidModel, "Entity '\(entity.name)' names parent entity '\(parentName)', which is not in the model (\(path), line \(line)).")
            }
            parent.subentities.append(entity)
        }
    }
}
