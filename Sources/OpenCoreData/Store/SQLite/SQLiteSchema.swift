import Foundation

/// How a model maps onto SQLite tables, in Core Data's layout.
///
/// - One table per inheritance root, `Z<ROOT>`, with `Z_PK`, `Z_ENT` (the row's
///   entity number), `Z_OPT` (its version) and a `Z<NAME>` column per stored attribute
///   and to-one relationship of every entity in the hierarchy (a name used twice in a
///   hierarchy gets a number suffix).
/// - A to-one relationship whose destination hierarchy has several entities also stores
///   the destination's entity number, in `Z<n><NAME>` (n: the source entity number).
/// - An ordered one-to-many relationship stores positions in `Z_FOK_<INVERSE>` on the
///   destination table.
/// - Many-to-many relationships (and to-many ones without inverse) use a join table
///   `Z_<n><NAME>` whose columns are named after the relationship that reaches each side.
final class SQLiteSchema {
    final class Table {
        let name: String
        let root: EntityDescription
        var columns: [(name: String, type: String)] = []
        init(name: String, root: EntityDescription) {
            self.name = name
            self.root = root
        }
        /// Adds a column, suffixing the name when the hierarchy already uses it.
        func addColumn(_ name: String, type: String) -> Int {
            var unique = name
            var suffix = 1
            while columns.contains(where: { $0.name == unique }) {
                unique = name + String(suffix)
                suffix += 1
            }
            columns.append((unique, type))
            return columns.count - 1
        }
    }

    /// Where one concrete entity's slots live in its table (column indexes into
    /// `table.columns`).
    struct EntityMapping {
        let entity: EntityDescription
        let slots: EntitySlots
        let table: Table
        /// Per slot: the value column of an attribute or to-one relationship.
        var valueColumn: [Int?]
        /// Per slot: for to-one relationships into a multi-entity hierarchy, the column
        /// holding the destination's entity number.
        var entityColumn: [Int?]
    }

    /// A join table for a many-to-many (or inverse-less to-many) relationship.
    struct JoinTable {
        let name: String
        /// The relationship whose owner's key is in `ownerColumn`.
        let owner: RelationshipDescription
        let ownerColumn: String
        let memberColumn: String
        /// Set when either side is ordered: positions of members within the owner.
        let orderColumn: String?
    }

    let tables: [Table]
    private(set) var mappings: [ObjectIdentifier: EntityMapping] = [:]
    private(set) var joinTables: [ObjectIdentifier: JoinTable] = [:]
    /// Ordered one-to-many relationships → the order column on the destination table.
    private(set) var orderColumns: [ObjectIdentifier: Int] = [:]
    let entitiesByNumber: [Int: EntityDescription]

    init(model: ManagedObjectModel) {
        entitiesByNumber = model.layout.entitiesByNumber
        var tables: [Table] = []
        var tableByRoot: [ObjectIdentifier: Table] = [:]
        for entity in model.entities where entity.superentity == nil {
            let table = Table(name: "Z" + entity.name.uppercased(), root: entity)
            tables.append(table)
            tableByRoot[ObjectIdentifier(entity)] = table
        }
        self.tables = tables
        for table in tables { addColumns(for: table.root, in: table, inherited: nil) }
        for entity in model.entities {
            for case let relationship as RelationshipDescription in entity.properties where relationship.isToMany {
                addToMany(relationship, tables: tableByRoot)
            }
        }
    }

    private func addColumns(for entity: EntityDescription, in table: Table, inherited: EntityMapping?) {
        let slots = entity.slots
        var mapping = EntityMapping(
            entity: entity, slots: slots, table: table,
            valueColumn: Array(repeating: nil, count: slots.properties.count),
            entityColumn: Array(repeating: nil, count: slots.properties.count))
        if let inherited {
            for slot in inherited.valueColumn.indices {
                mapping.valueColumn[slot] = inherited.valueColumn[slot]
                mapping.entityColumn[slot] = inherited.entityColumn[slot]
            }
        }
        let ownStart = slots.properties.count - entity.properties.count
        for slot in ownStart..<slots.properties.count {
            let property = slots.properties[slot]
            let name = "Z" + property.name.uppercased()
            if let attribute = slots.attributes[slot], !attribute.isTransient {
                mapping.valueColumn[slot] = table.addColumn(name, type: attribute.sqlColumnType)
            } else if let relationship = slots.relationships[slot], !relationship.isToMany {
                mapping.valueColumn[slot] = table.addColumn(name, type: "INTEGER")
                if relationship.destinationEntity!.rootEntity.selfAndDescendants.count > 1 {
                    mapping.entityColumn[slot] = table.addColumn("Z\(slots.number)" + property.name.uppercased(), type: "INTEGER")
                }
            }
        }
        mappings[ObjectIdentifier(entity)] = mapping
        for sub in entity.subentities { addColumns(for: sub, in: table, inherited: mapping) }
    }

    private func addToMany(_ relationship: RelationshipDescription, tables: [ObjectIdentifier: Table]) {
        let owner = relationship.entity!
        let destination = relationship.destinationEntity!
        if relationship.isManyToMany {
            let inverse = relationship.inverseRelationship
            guard isJoinOwner(relationship) else { return }
            let ownerNumber = owner.slots.number
            let destinationNumber = destination.slots.number
            let name = "Z_\(ownerNumber)" + relationship.name.uppercased()
            let ownerColumn = "Z_\(ownerNumber)" + (inverse?.name.uppercased() ?? "INVERSE_" + relationship.name.uppercased())
            let memberColumn = "Z_\(destinationNumber)" + relationship.name.uppercased()
            let ordered = relationship.isOrdered || (inverse?.isOrdered ?? false)
            let join = JoinTable(name: name, owner: relationship, ownerColumn: ownerColumn, memberColumn: memberColumn,
                                 orderColumn: ordered ? "Z_FOK_" + memberColumn.dropFirst(2) : nil)
            joinTables[ObjectIdentifier(relationship)] = join
            if let inverse { joinTables[ObjectIdentifier(inverse)] = join }
        } else if relationship.isOrdered, let inverse = relationship.inverseRelationship {
            let table = tables[ObjectIdentifier(destination.rootEntity)]!
            orderColumns[ObjectIdentifier(relationship)] = table.addColumn("Z_FOK_" + inverse.name.uppercased(), type: "INTEGER")
        }
    }

    /// The side of a many-to-many pair that names the join table: the ordered side if
    /// only one is ordered, else the first by entity and relationship name.
    private func isJoinOwner(_ relationship: RelationshipDescription) -> Bool {
        guard let inverse = relationship.inverseRelationship else { return true }
        if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
        let mine = (relationship.entity!.name, relationship.name)
        let theirs = (inverse.entity!.name, inverse.name)
        return mine <= theirs
    }

    // MARK: - Lookups

    func mapping(for entity: EntityDescription) -> EntityMapping { mappings[ObjectIdentifier(entity)]! }
    func table(for entity: EntityDescription) -> Table { mapping(for: entity).table }
    func joinTable(for relationship: RelationshipDescription) -> JoinTable? { joinTables[ObjectIdentifier(relationship)] }
    func orderColumn(for relationship: RelationshipDescription) -> String? {
        orderColumns[ObjectIdentifier(relationship)].map { table(for: relationship.destinationEntity!).columns[$0].name }
    }

    /// Every join table once.
    var allJoinTables: [JoinTable] {
        var seen = Set<String>()
        return joinTables.values.filter { seen.insert($0.name).inserted }.sorted { $0.name < $1.name }
    }

    // MARK: - DDL

    /// The statements that create a new store holding `entities` (a configuration's):
    /// their tables and indexes, then `Z_PRIMARYKEY` and `Z_METADATA`.
    func creationSQL(model: ManagedObjectModel, entities: [EntityDescription]) -> [String] {
        tableSQL(for: entities) + indexSQL(model: model, entities: entities) + [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        ]
    }

    /// The tables of the hierarchies `entities` belong to, and the join tables between
    /// two of those hierarchies; existing ones are kept (`IF NOT EXISTS`), so opening a
    /// store with another configuration of the same model adds what it lacks.
    func tableSQL(for entities: [EntityDescription]) -> [String] {
        let roots = Self.roots(of: entities)
        var statements: [String] = []
        for table in tables where roots.contains(ObjectIdentifier(table.root)) {
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + table.columns.map { "\($0.name) \($0.type)" }
            statements.append("CREATE TABLE IF NOT EXISTS \(table.name) (\(columns.joined(separator: ", ")))")
        }
        for join in allJoinTables where joins(join, within: roots) {
            var columns = ["\(join.ownerColumn) INTEGER", "\(join.memberColumn) INTEGER"]
            if let order = join.orderColumn { columns.append("\(order) INTEGER") }
            statements.append("CREATE TABLE IF NOT EXISTS \(join.name) (\(columns.joined(separator: ", ")), PRIMARY KEY (\(join.ownerColumn), \(join.memberColumn)))")
            statements.append("CREATE INDEX IF NOT EXISTS \(join.name)_\(join.memberColumn)_INDEX ON \(join.name) (\(join.memberColumn), \(join.ownerColumn))")
        }
        return statements
    }

    /// The inheritance roots of `entities`, whose tables hold their rows.
    private static func roots(of entities: [EntityDescription]) -> Set<ObjectIdentifier> {
        Set(entities.map { ObjectIdentifier($0.rootEntity) })
    }

    /// Whether both sides of a join table are hierarchies among `roots`.
    private func joins(_ join: JoinTable, within roots: Set<ObjectIdentifier>) -> Bool {
        guard let owner = join.owner.entity, let member = join.owner.destinationEntity else { return false }
        return roots.contains(ObjectIdentifier(owner.rootEntity)) && roots.contains(ObjectIdentifier(member.rootEntity))
    }

    /// Indexes for Z_ENT (tables of several entities), to-one foreign keys, fetch indexes
    /// and uniqueness constraints, on the tables of `entities`.
    func indexSQL(model: ManagedObjectModel, entities: [EntityDescription]) -> [String] {
        let roots = Self.roots(of: entities)
        var statements: [String] = []
        for table in tables where table.root.selfAndDescendants.count > 1 && roots.contains(ObjectIdentifier(table.root)) {
            statements.append("CREATE INDEX IF NOT EXISTS \(table.name)_Z_ENT ON \(table.name) (Z_ENT)")
        }
        for entity in model.entities where roots.contains(ObjectIdentifier(entity.rootEntity)) {
            let mapping = mapping(for: entity)
            let table = mapping.table
            let slots = entity.slots
            let ownStart = slots.properties.count - entity.properties.count
            for slot in ownStart..<slots.properties.count {
                guard let column = mapping.valueColumn[slot] else { continue }
                let attribute = slots.attributes[slot]
                if slots.relationships[slot] != nil || attribute?.isIndexed == true {
                    let name = table.columns[column].name
                    statements.append("CREATE INDEX IF NOT EXISTS \(entity.name.uppercased())_\(name)_INDEX ON \(table.name) (\(name))")
                }
            }
            for index in entity.indexes {
                let columns = index.elements.compactMap { element -> String? in
                    guard let slot = slots.slotByName[element.propertyName], let column = mapping.valueColumn[slot] else { return nil }
                    return table.columns[column].name + (element.isAscending ? "" : " DESC")
                }
                guard !columns.isEmpty else { continue }
                statements.append("CREATE INDEX IF NOT EXISTS Z_\(entity.name.uppercased())_\(sanitized(index.name)) ON \(table.name) (\(columns.joined(separator: ", ")))")
            }
            for (number, constraint) in entity.uniquenessConstraints.enumerated() {
                let columns = constraint.compactMap { name -> String? in
                    guard let slot = slots.slotByName[name], let column = mapping.valueColumn[slot] else { return nil }
                    return table.columns[column].name
                }
                guard !columns.isEmpty else { continue }
                let entities = entity.selfAndDescendants.map { String($0.slots.number) }.joined(separator: ", ")
                statements.append("CREATE UNIQUE INDEX IF NOT EXISTS Z_\(entity.name.uppercased())_UNIQUE_\(number) ON \(table.name) (\(columns.joined(separator: ", "))) WHERE Z_ENT IN (\(entities))")
            }
        }
        return statements
    }

    private func sanitized(_ name: String) -> String {
        String(name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
