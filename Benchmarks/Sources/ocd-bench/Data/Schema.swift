/// The SQL shape shared by the raw and GRDB engines: the same table, columns and
/// indexes that OpenCoreData creates for the `Flat` and `Item` entities.
enum Schema {
    /// `Z_ENT` of `Flat` (and of `Item` in its own model): the only entity of its model.
    static let entityNumber: Int64 = 1

    static let pragmas = [
        "PRAGMA journal_mode = WAL",
        "PRAGMA synchronous = FULL",
    ]

    static let createFlat = """
        CREATE TABLE ZFLAT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \
        ZA0 INTEGER, ZA1 INTEGER, ZA2 FLOAT, ZA3 FLOAT, ZA4 VARCHAR, ZA5 VARCHAR, \
        ZA6 INTEGER, ZA7 TIMESTAMP, ZA8 BLOB, ZA9 VARCHAR)
        """
    static let createFlatIndex = "CREATE INDEX ZFLAT_ZA1_INDEX ON ZFLAT (ZA1)"

    static let createItem = """
        CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \
        ZORDER INTEGER, ZPARENT INTEGER, ZTITLE VARCHAR)
        """
    static let createItemIndex = "CREATE INDEX ZITEM_ZPARENT_INDEX ON ZITEM (ZPARENT)"

    /// The ten attribute columns, in `a0…a9` order.
    static let flatColumns = (0..<10).map { "ZA\($0)" }
    static var flatColumnList: String { flatColumns.joined(separator: ", ") }

    static var insertFlat: String {
        "INSERT INTO ZFLAT (Z_PK, Z_ENT, Z_OPT, \(flatColumnList)) VALUES (?, ?, ?, \(Array(repeating: "?", count: 10).joined(separator: ", ")))"
    }
    static var selectAllFlat: String { "SELECT Z_PK, \(flatColumnList) FROM ZFLAT" }
    static var selectW3: String { "\(selectAllFlat) WHERE ZA1 > ? ORDER BY ZA5 LIMIT 50" }
    static var selectFlatByPK: String { "\(selectAllFlat) WHERE Z_PK = ?" }
    static let w3Threshold: Int64 = 500
    static let w3Limit = 50

    static let selectSelectedForUpdate = "SELECT Z_PK, Z_OPT, ZA0 FROM ZFLAT WHERE ZA6 = 1"
    static let updateFlat = "UPDATE ZFLAT SET Z_OPT = ?, ZA2 = ?, ZA4 = ? WHERE Z_PK = ?"
    static let selectSelectedKeys = "SELECT Z_PK FROM ZFLAT WHERE ZA6 = 1"
    static let deleteFlat = "DELETE FROM ZFLAT WHERE Z_PK = ?"
    static let selectAllKeys = "SELECT Z_PK FROM ZFLAT"

    static let insertItem = "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZORDER, ZPARENT, ZTITLE) VALUES (?, ?, 1, ?, ?, ?)"
    static let deleteSubtree = """
        WITH RECURSIVE subtree(pk) AS (\
        SELECT Z_PK FROM ZITEM WHERE ZTITLE = ?1 \
        UNION ALL SELECT c.Z_PK FROM ZITEM c JOIN subtree s ON c.ZPARENT = s.pk) \
        DELETE FROM ZITEM WHERE Z_PK IN subtree
        """
    static let bumpSubtreeParent = "UPDATE ZITEM SET Z_OPT = Z_OPT + 1 WHERE Z_PK = (SELECT ZPARENT FROM ZITEM WHERE ZTITLE = ?)"

    // W8: two case-insensitive substring tests. The data and the needle are ASCII without
    // wildcards, so SQLite's own `LIKE '%…%'` (ASCII case folding) gives the same answer as
    // `CONTAINS[c]`; it is the fastest hand-written form (faster than `instr(lower(…))`).
    static let w8Needle = "QX"
    static var w8Pattern: String { "%\(w8Needle)%" }
    static var selectW8: String { "\(selectAllFlat) WHERE ZA4 LIKE ?1 OR ZA9 LIKE ?1 ORDER BY ZA5 LIMIT 50" }

    // W9: items with a child whose title begins with the prefix (byte-exact, as BEGINSWITH
    // without options; titles are ASCII, so `substr` counts the same characters).
    static let w9Prefix = "A-99"
    static let selectW9 = """
        SELECT t.ZTITLE FROM ZITEM t WHERE EXISTS (SELECT 1 FROM ZITEM c \
        WHERE c.ZPARENT = t.Z_PK AND substr(c.ZTITLE, 1, length(?1)) = ?1) ORDER BY t.ZTITLE
        """

    // W10: a walk over every row reading one attribute.
    static let selectW10 = "SELECT ZA4 FROM ZFLAT"
    static let w10BatchSize = 20

    // W11 / W12: every row goes.
    static let deleteAllFlat = "DELETE FROM ZFLAT"

    /// The DDL printed in the report.
    static var printedDDL: [String] { [createFlat, createFlatIndex, createItem, createItemIndex] }
}
