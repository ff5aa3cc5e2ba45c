import Foundation

/// Finds the `ocd-torture` helper that SwiftPM builds beside the test bundle (the test
/// targets depend on it); `OCD_TORTURE` overrides the place.
package enum TortureBinary {
    package static let name = "ocd-torture"

    /// The helper's location, or nil (with the places searched) when it is not built.
    package static func locate() -> (url: URL?, searched: [String]) {
        ProductBinary.locate(name, overrideVariable: "OCD_TORTURE")
    }
}
