import Foundation

/// How many kills each kill test makes: `OCD_KILLS` in all (60 by default, for CI),
/// two fifths for the save loop and one fifth for each other mode.
/// `OCD_KILLS=5000 swift test --filter KillTests` runs a long soak.
enum KillBudget {
    static var total: Int { max(5, ProcessInfo.integer("OCD_KILLS", default: 60)) }
    static var saveLoop: Int { total * 2 / 5 }
    static var perOtherMode: Int { max(1, total / 5) }
}
