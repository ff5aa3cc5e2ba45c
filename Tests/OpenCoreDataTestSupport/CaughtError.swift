import Foundation
import OpenCoreData

/// The `CoreDataError` `body` throws; nil when it throws nothing or another error.
package func caughtError(_ body: () throws -> Void) -> CoreDataError? {
    do { try body() } catch let error as CoreDataError { return error } catch { return nil }
    return nil
}

/// The code of the `CoreDataError` `body` throws; nil when it throws nothing or another error.
package func code(of body: () throws -> Void) -> CoreDataError.Code? {
    caughtError(body)?.code
}
