import Foundation
import OpenCoreDataTestSupport
import Testing

/// `opencoredata-demo bugs …` run as a child process: projects by host, bugs newest first,
/// screenshots, deletes.
@Suite struct BugsCommandTests {
    /// The 8-byte PNG signature and an IHDR chunk's start: enough for a check by magic bytes.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])

    @Test func projectsAndBugs() throws {
        let cli = try DemoCLI()
        let site = try cli.run(["bugs", "add-project", "Site", "--url", "https://example.com/site", "--json"]).json(DemoJSON.BugsAction.self)
        #expect(site.project?.host == "example.com")
        try cli.run(["bugs", "add-project", "Docs", "--url", "https://example.com/docs"], expectingStatus: 0)
        try cli.run(["bugs", "add-project", "Tool", "--url", "https://tools.dev/tool"], expectingStatus: 0)

        let sections = try cli.run(["bugs", "projects", "--json"]).json(DemoJSON.Projects.self).sections
        #expect(sections.map(\.name) == ["example.com", "tools.dev"])
        #expect(sections.map(\.indexTitle) == ["E", "T"])
        #expect(sections.flatMap(\.projects).map(\.reference) == [2, 1, 3])
        #expect(sections.first?.projects.map(\.name) == ["Docs", "Site"])
        let search = try cli.run(["bugs", "projects", "--search", "TOOLS", "--json"]).json(DemoJSON.Projects.self).sections
        #expect(search.flatMap(\.projects).map(\.name) == ["Tool"])
        #expect(search.count == 1)

        let screenshot = try cli.folder.write("", to: "shot.png")
        try Self.png.write(to: screenshot)
        try cli.run(["bugs", "add-bug", "Site", "Crash on save", "--details", "Steps:\n1. Save", "--screenshot", screenshot.path], expectingStatus: 0)
        let typo = try cli.run(["bugs", "add-bug", "@\(try #require(site.project?.reference))", "Typo", "--json"]).json(DemoJSON.BugsAction.self)
        #expect(typo.bug?.title == "Typo")

        let bugs = try cli.run(["bugs", "bugs", "Site", "--json"]).json(DemoJSON.Bugs.self)
        #expect(bugs.project.bugCount == 2)
        #expect(bugs.bugs.map(\.title) == ["Typo", "Crash on save"])
        #expect(bugs.bugs.last?.details == "Steps:\n1. Save")
        #expect(bugs.bugs.last?.screenshotFormat == "png")
        #expect(bugs.bugs.first?.screenshotFormat == nil)

        let text = try cli.run(["bugs", "projects"])
        #expect(text.output == """
            example.com
              @2  Docs  https://example.com/docs  0 bugs
              @1  Site  https://example.com/site  2 bugs
            tools.dev
              @3  Tool  https://tools.dev/tool  0 bugs

            """, "\(text)")

        try cli.run(["bugs", "rm", "--bug", "@\(try #require(typo.bug?.reference))"], expectingStatus: 0)
        #expect(try cli.run(["bugs", "bugs", "Site", "--json"]).json(DemoJSON.Bugs.self).bugs.map(\.title) == ["Crash on save"])
        try cli.run(["bugs", "rm", "Site"], expectingStatus: 0)
        let left = try cli.run(["bugs", "projects", "--json"]).json(DemoJSON.Projects.self).sections
        #expect(left.flatMap(\.projects).map(\.name) == ["Docs", "Tool"])
    }
}
