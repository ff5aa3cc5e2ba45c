import Mustache

/// The hidden fields every form of a page carries (`Templates/form-fields.mustache`): the
/// tab whose context the action runs in, the session's CSRF token, and the page to come
/// back to.
///
/// `fields` is those inputs' HTML, rendered (and escaped) by the template once per page,
/// since a list's every row has four forms: templates insert it with `{{{form.fields}}}`.
/// Make one with `Pages.form(tab:csrf:back:)`.
struct FormValues: Hashable, Sendable {
    let tab: String
    let csrf: String
    let back: String
    let fields: String
}

extension Pages {
    /// The forms' values of a page of `tab`, their hidden inputs rendered once.
    func form(tab: String, csrf: String, back: String) throws(WebError) -> FormValues {
        let fields = try render("form-fields", ["form": FormValues(tab: tab, csrf: csrf, back: back, fields: "")])
        return FormValues(tab: tab, csrf: csrf, back: back, fields: fields)
    }

    /// The forms' values of the page `chrome` heads.
    func form(_ chrome: PageChrome) throws(WebError) -> FormValues {
        try form(tab: chrome.tab, csrf: chrome.csrf, back: chrome.back)
    }
}

extension FormValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "tab": self.tab
        case "csrf": self.csrf
        case "back": self.back
        case "fields": self.fields
        default: nil
        }
    }
}
