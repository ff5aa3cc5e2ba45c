import Foundation

/// The one error type OpenCoreData throws.
///
/// Every failure that depends on data or input — loading a model, opening a store,
/// validating and saving, fetching — is reported as a `CoreDataError` whose `code`
/// mirrors Core Data's `NSCocoaErrorDomain` codes, with the object and key involved
/// and a readable message. Match on `code` in `catch`:
///
/// ```swift
/// do { try context.save() }
/// catch let error as CoreDataError where error.code == .validationMultipleErrors {
///     for failure in error.underlyingErrors { print(failure.message) }
/// }
/// ```
public struct CoreDataError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a Core Data–compatible numeric code.
    public var code: Code
    /// A readable explanation naming the entity, key and value involved.
    public var message: String
    /// The object the error is about, when there is one.
    public var objectID: ManagedObjectID?
    /// The property (or key path) the error is about, when there is one.
    public var key: String?
    /// The individual failures behind a `.validationMultipleErrors` error.
    public var underlyingErrors: [CoreDataError]
    /// The SQLite result code, for errors raised by the SQLite store.
    public var sqliteResultCode: Int32?
    /// For `.invalidPredicate` parse errors: the offset, in Unicode scalars, where parsing failed.
    public var offset: Int?
    /// For `.mergeConflict`: one record per object whose row changed in the store since
    /// the context read it.
    public var conflicts: [MergeConflict] = []
    /// For `.constraintViolation` raised by a save: one record per group of objects that
    /// would share the values of a uniqueness constraint.
    public var constraintConflicts: [ConstraintConflict] = []

    public init(
        _ code: Code,
        _ message: String,
        objectID: ManagedObjectID? = nil,
        key: String? = nil,
        underlyingErrors: [CoreDataError] = [],
        sqliteResultCode: Int32? = nil,
        offset: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.objectID = objectID
        self.key = key
        self.underlyingErrors = underlyingErrors
        self.sqliteResultCode = sqliteResultCode
        self.offset = offset
    }

    public var description: String {
        var text = "CoreDataError \(code): \(message)"
        for error in underlyingErrors { text += "\n  - \(error.code): \(error.message)" }
        return text
    }

    /// Whether this error is one of the validation errors (codes 1550–1690).
    public var isValidationError: Bool { (1550...1690).contains(code.rawValue) }
}

extension CoreDataError {
    /// A Core Data error code. New codes can be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int
        public let name: String

        public init(rawValue: Int, name: String) {
            self.rawValue = rawValue
            self.name = name
        }

        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.rawValue == rhs.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
        public var description: String { "\(name) (\(rawValue))" }

        // MARK: - Validation (NSValidation…Error)
        public static let validationGeneric = Code(rawValue: 1550, name: "validation")
        public static let validationMultipleErrors = Code(rawValue: 1560, name: "validationMultipleErrors")
        public static let validationMissingMandatoryProperty = Code(rawValue: 1570, name: "validationMissingMandatoryProperty")
        public static let validationRelationshipLacksMinimumCount = Code(rawValue: 1580, name: "validationRelationshipLacksMinimumCount")
        public static let validationRelationshipExceedsMaximumCount = Code(rawValue: 1590, name: "validationRelationshipExceedsMaximumCount")
        public static let validationRelationshipDeniedDelete = Code(rawValue: 1600, name: "validationRelationshipDeniedDelete")
        public static let validationNumberTooLarge = Code(rawValue: 1610, name: "validationNumberTooLarge")
        public static let validationNumberTooSmall = Code(rawValue: 1620, name: "validationNumberTooSmall")
        public static let validationDateTooLate = Code(rawValue: 1630, name: "validationDateTooLate")
        public static let validationDateTooSoon = Code(rawValue: 1640, name: "validationDateTooSoon")
        public static let validationStringTooLong = Code(rawValue: 1660, name: "validationStringTooLong")
        public static let validationStringTooShort = Code(rawValue: 1670, name: "validationStringTooShort")
        public static let validationStringPatternMatching = Code(rawValue: 1680, name: "validationStringPatternMatching")
        /// A value of the wrong type, or a number that does not fit the attribute's type.
        /// (Core Data raises an exception here; we report a validation error.)
        public static let validationWrongType = Code(rawValue: 1690, name: "validationWrongType")

        // MARK: - Objects and contexts
        /// The object (or the row behind a fault) does not exist in the store.
        public static let objectNotFound = Code(rawValue: 133000, name: "objectNotFound")
        /// An object being saved relates to an object of another persistent store
        /// (NSManagedObjectExternalRelationshipError): relationships cannot cross stores.
        public static let externalRelationship = Code(rawValue: 133010, name: "externalRelationship")
        /// Rows changed or deleted in the store since the context read them
        /// (NSManagedObjectMergeError); `conflicts` lists each one. Nothing was written.
        public static let mergeConflict = Code(rawValue: 133020, name: "mergeConflict")
        /// A uniqueness constraint in the model was violated by a save.
        public static let constraintViolation = Code(rawValue: 133021, name: "constraintViolation")

        // MARK: - Stores
        public static let storeInvalidType = Code(rawValue: 134000, name: "storeInvalidType")
        public static let storeSaveFailed = Code(rawValue: 134030, name: "storeSaveFailed")
        /// A save over several stores committed to some of them and then failed
        /// (NSPersistentStoreIncompleteSaveError); the message names which stores committed.
        public static let storeIncompleteSave = Code(rawValue: 134040, name: "storeIncompleteSave")
        public static let storeOperationFailed = Code(rawValue: 134070, name: "storeOperationFailed")
        public static let storeOpenFailed = Code(rawValue: 134080, name: "storeOpenFailed")
        /// The store stayed locked by another connection or process past the busy timeout
        /// (NSPersistentStoreTimeoutError; the timeout is `PersistentStoreOption.timeout`).
        public static let storeTimeout = Code(rawValue: 134090, name: "storeTimeout")
        /// A request the stores cannot answer as asked, such as a grouped dictionary fetch
        /// or a batch request spanning several stores (NSPersistentStoreUnsupportedRequestTypeError).
        public static let storeUnsupportedRequest = Code(rawValue: 134091, name: "storeUnsupportedRequest")
        /// The file is not a SQLite database, or is a SQLite database that is not a store.
        public static let notAStore = Code(rawValue: 134081, name: "notAStore")
        /// The file is a store whose content is damaged.
        public static let storeCorrupt = Code(rawValue: 134082, name: "storeCorrupt")
        /// The store was written with a different model (NSPersistentStoreIncompatibleVersionHashError).
        public static let incompatibleModel = Code(rawValue: 134100, name: "incompatibleModel")
        public static let sqliteError = Code(rawValue: 134180, name: "sqliteError")
        /// A persistent history request's token is no longer valid: the history after it
        /// was deleted, or it names a store the coordinator does not have
        /// (NSPersistentHistoryTokenExpiredError). Fetch again from a nil token.
        public static let persistentHistoryTokenExpired = Code(rawValue: 134301, name: "persistentHistoryTokenExpired")

        // MARK: - OpenCoreData's own codes (200000 and up, outside Core Data's ranges)
        /// The store cannot be written: a read-only file, directory or mount, or a store
        /// opened with `PersistentStoreOption.readOnly`. Nothing is wrong with its content.
        public static let storeReadOnly = Code(rawValue: 200001, name: "storeReadOnly")

        // MARK: - Models and requests
        /// A model file or a model built in code is malformed.
        public static let invalidModel = Code(rawValue: 134500, name: "invalidModel")
        /// A `.xcdatamodeld` has several versions and names no current one.
        public static let ambiguousModelVersion = Code(rawValue: 134501, name: "ambiguousModelVersion")
        /// A fetch request names an entity or key the model does not have, or is malformed.
        public static let invalidFetchRequest = Code(rawValue: 134502, name: "invalidFetchRequest")
        /// A predicate format string could not be parsed.
        public static let invalidPredicate = Code(rawValue: 134503, name: "invalidPredicate")
        /// A transformable attribute names a value transformer nobody registered,
        /// or its value could not be transformed.
        public static let transformerFailed = Code(rawValue: 134504, name: "transformerFailed")
    }
}
