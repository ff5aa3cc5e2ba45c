import Foundation
import OpenCoreDataTestSupport
import Testing

/// Both apps in headless Chromium, used as a person would (`Tests/Scripts/browser_test.py`):
/// adding with Enter, three levels of sub-lists, reordering with focus kept, delete with
/// cascade, Ctrl+Z and Ctrl+Shift+Z, a second window updated live, a change from the
/// command line, a server restart, projects by host, search, a bug with a screenshot, and
/// no console errors.
@Suite struct BrowserTests {
    @Test func bothAppsWorkInHeadlessChromium() throws {
        let script = try ServerScript("browser_test.py")
        try ServerScript.require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "/usr/bin/chromium is missing (Debian's chromium)")
        try ServerScript.require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"), "/usr/bin/chromedriver is missing (Debian's chromium-driver)")
        try ServerScript.require(Self.hasSelenium, "Python's selenium is missing")
        let folder = TemporaryFolder()
        let screenshots = folder.file("screenshots")
        let run = try script.run(["--screenshots", screenshots.path], timeout: 600)
        try #require(run.status == 0, "\(run)")
        for name in ["lists.png", "projects.png"] {
            let data = try Data(contentsOf: screenshots.appendingPathComponent(name))
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name) is a PNG")
        }
    }

    static var hasSelenium: Bool {
        guard let python = ServerScript.python, let child = try? ChildProcess(python, ["-c", "import selenium"]) else { return false }
        _ = child.finish(timeout: 30)
        return child.exitStatus == 0
    }
}
