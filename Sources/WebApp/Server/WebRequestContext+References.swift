import EditingSession
import OpenCoreData

extension WebRequestContext {
    /// The saved object the path parameter `name` (`list`, `item`, `project`, `bug`) names;
    /// 404 for anything but a reference (`12`).
    func reference<Object: ManagedObject>(_ name: String) throws(WebError) -> Reference<Object> {
        guard let text = parameters.get(name), let reference = Reference<Object>(text) else {
            throw .notFound("There is no such \(name).")
        }
        return reference
    }
}
