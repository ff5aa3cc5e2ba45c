import Hummingbird

/// `POST /undo` and `/redo`: take back (or redo) the tab's last action, saved at once.
/// Only this tab's actions are in its history. When another tab or program has changed
/// the same objects since, the step is refused (409) and stays undoable: the page says so.
struct UndoRoutes {
    let app: WebApp

    func register(on router: Router<WebRequestContext>) {
        router.post("/undo") { request, context in
            try await app.act(request, context, fallback: "/") { editor, _ in
                guard try editor.session.undo() != nil else { throw WebError(status: .conflict, message: "There is nothing to undo.") }
            }
        }
        router.post("/redo") { request, context in
            try await app.act(request, context, fallback: "/") { editor, _ in
                guard try editor.session.redo() != nil else { throw WebError(status: .conflict, message: "There is nothing to redo.") }
            }
        }
    }
}
