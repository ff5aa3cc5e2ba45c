import BugsKit
import DemoStore
import EditingSession
import Foundation
import ListsKit
import Mustache
import OpenCoreDataTestSupport
import Testing
@testable import WebApp

/// The page values answer Mustache by name (`MustacheParent`), which is much cheaper than
/// the reflection Mustache falls back to: each answers every stored property with its
/// value, and the computed ones reflection never saw.
@Suite struct PageValuesTests {
    /// Every stored property of `value`, as reflection lists it, is answered by
    /// `child(named:)` with the same value; an unknown name is nil.
    static func expectAnswersEveryProperty(_ value: some MustacheParent, sourceLocation: SourceLocation = #_sourceLocation) {
        let properties = Mirror(reflecting: value).children.compactMap { child in child.label.map { ($0, child.value) } }
        #expect(!properties.isEmpty, sourceLocation: sourceLocation)
        for (name, stored) in properties {
            let answered = value.child(named: name).map { String(describing: $0) } ?? "nil"
            #expect(answered == Self.text(of: stored), "\(type(of: value)).\(name)", sourceLocation: sourceLocation)
        }
        #expect(value.child(named: "noSuchValue") == nil, sourceLocation: sourceLocation)
    }

    /// How `value` prints, an optional's content without `Optional(…)`, none as `nil`.
    static func text(of value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return String(describing: value) }
        return mirror.children.first.map { String(describing: $0.value) } ?? "nil"
    }

    static let form = FormValues(tab: "t1", csrf: "c0ffee", back: "/lists?tab=t1", fields: "<input type=\"hidden\" name=\"tab\" value=\"t1\">")
    static let chrome = PageChrome(title: "Lists", app: "lists", tab: "t1", csrf: "c0ffee", back: "/lists?tab=t1", undo: "Undo Add “Milk”", redo: nil, message: nil)

    @Test func theListsPagesValues() throws {
        Self.expectAnswersEveryProperty(Self.form)
        Self.expectAnswersEveryProperty(Self.chrome)
        #expect(Self.chrome.child(named: "isLists") as? Bool == true)
        #expect(Self.chrome.child(named: "isBugs") as? Bool == false)
        let row = ItemRow(reference: try #require(Reference(primaryKey: 7)), title: "Milk", order: 2, childCount: 3)
        Self.expectAnswersEveryProperty(ListRowValues(row, list: "1", form: Self.form))
        let crumb = ListPageValues.Crumb(title: "Lists", href: "/lists?tab=t1")
        Self.expectAnswersEveryProperty(crumb)
        Self.expectAnswersEveryProperty(ListPageValues(chrome: Self.chrome, form: Self.form, ref: "1", title: "Lists", crumbs: [crumb], rows: "<li></li>", isEmpty: false))
        Self.expectAnswersEveryProperty(HomeValues(chrome: Self.chrome, form: Self.form))
        Self.expectAnswersEveryProperty(ErrorValues(status: 404, reason: "Not Found", message: "There is no such page."))
    }

    @Test func theHeaderMarksTheCurrentApp() async throws {
        let pages = try await Pages.load()
        let html = try pages.render("home", HomeValues(chrome: Self.chrome, form: Self.form))
        #expect(html.contains("<a href=\"/lists?tab=t1\" aria-current=\"page\">Lists</a>"))
        #expect(html.contains("<a href=\"/projects?tab=t1\">Bugs</a>"))
        #expect(html.contains(">Undo Add “Milk”</button>"))
    }

    @Test func aPagesFormFieldsAreRenderedOnceAndEscaped() async throws {
        let pages = try await Pages.load()
        let form = try pages.form(tab: "t1", csrf: "c0ffee", back: "/projects?q=\"><script>&tab=t1")
        #expect(form.fields == "<input type=\"hidden\" name=\"tab\" value=\"t1\"><input type=\"hidden\" name=\"csrf\" value=\"c0ffee\">"
            + "<input type=\"hidden\" name=\"back\" value=\"/projects?q=&quot;&gt;&lt;script&gt;&amp;tab=t1\">")
        let row = ItemRow(reference: try #require(Reference(primaryKey: 7)), title: "Milk", order: 0, childCount: 0)
        let html = try pages.render("list-row", ListRowValues(row, list: "1", form: form))
        #expect(html.components(separatedBy: form.fields).count == 5, "each of the row's four forms carries the fields")
    }

    @Test func theTrackersPagesValues() throws {
        let folder = TemporaryFolder()
        let store = try DemoStore.open(at: folder.file("Demo.sqlite"))
        let tracker = BugTracker(session: EditingSession(context: store.newContext()))
        let project = try tracker.addProject(name: "Site", url: "https://example.org")
        let plain = try tracker.addProject(name: "Notes")
        let bug = try tracker.addBug(to: project.reference, title: "Crash", details: "On save")
        let bare = try tracker.addBug(to: project.reference, title: "Typo")
        for row in [project, plain] {
            Self.expectAnswersEveryProperty(ProjectRowValues(row, allowsEditing: true, form: Self.form))
        }
        for row in [bug, bare] {
            Self.expectAnswersEveryProperty(BugRowValues(row, form: Self.form))
        }
        Self.expectAnswersEveryProperty(ProjectSectionValues(name: "example.org", indexTitle: "E", isSearching: false, rows: ""))
        Self.expectAnswersEveryProperty(ProjectSectionValues(name: "", indexTitle: nil, isSearching: true, rows: ""))
        let entry = ProjectsPageValues.IndexEntry(title: "E", anchor: "section-example.org")
        Self.expectAnswersEveryProperty(entry)
        Self.expectAnswersEveryProperty(ProjectsPageValues(
            chrome: Self.chrome, form: Self.form, searchText: "", isSearching: false, index: [entry], hasIndex: true,
            live: "/projects/events", sections: "", isEmpty: false
        ))
        Self.expectAnswersEveryProperty(ProjectPageValues(
            chrome: Self.chrome, form: Self.form, project: ProjectRowValues(project, allowsEditing: false, form: Self.form),
            live: "/projects/1/events", rows: "", isEmpty: true
        ))
    }
}
