import Foundation

/// The CLI's JSON documents, as a script would decode them (see docs/demo-apps.md).
enum DemoJSON {
    struct ItemRow: Decodable, Equatable {
        let path: String
        let reference: Int64
        let title: String
        let order: Int
        let childCount: Int
    }

    struct Crumb: Decodable, Equatable {
        let path: String
        let reference: Int64
        let title: String
    }

    struct List: Decodable {
        let breadcrumb: [Crumb]
        let items: [ItemRow]
    }

    struct TreeNode: Decodable {
        let path: String
        let reference: Int64
        let title: String
        let children: [TreeNode]

        /// Every node below this one, depth first.
        var descendants: [TreeNode] { children.flatMap { [$0] + $0.descendants } }
    }

    struct Action: Decodable {
        let action: String
        let item: ItemRow?
    }

    struct Project: Decodable, Equatable {
        let reference: Int64
        let name: String
        let url: String?
        let host: String?
        let bugCount: Int
    }

    struct Section: Decodable {
        let name: String
        let indexTitle: String?
        let projects: [Project]
    }

    struct Projects: Decodable {
        let sections: [Section]
    }

    struct Bug: Decodable {
        let reference: Int64
        let title: String
        let details: String?
        let created: Date
        let screenshotFormat: String?
    }

    struct Bugs: Decodable {
        let project: Project
        let bugs: [Bug]
    }
}

extension DemoJSON {
    struct BugsAction: Decodable {
        let action: String
        let project: Project?
        let bug: Bug?
    }
}
