import Foundation

public final class BugTracker {}
