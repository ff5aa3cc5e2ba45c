// OpenCoreData demo: live pages. Without this script every form still works (a POST and a
// redirect); with it, forms are sent with fetch, and each list marked data-live follows its
// fetched results controller through a server-sent event stream, changed in place.
"use strict";

(function () {
  const body = document.body;
  const tab = body.dataset.tab;
  const csrf = body.dataset.csrf;
  if (!tab || !csrf) return;

  // Messages ---------------------------------------------------------------------------
  function showMessage(text) {
    const message = document.getElementById("message");
    if (!message) return;
    message.textContent = text || "";
    message.hidden = !text;
  }
  function showStatus(text) {
    const status = document.getElementById("status");
    if (!status) return;
    status.textContent = text || "";
    status.hidden = !text;
  }

  // Undo and redo buttons ----------------------------------------------------------------
  function setUndo(state) {
    if (!state) return;
    for (const [id, label, fallback] of [["undo", state.undo, "Undo"], ["redo", state.redo, "Redo"]]) {
      const button = document.getElementById(id);
      if (!button) continue;
      button.textContent = label || fallback;
      button.disabled = !label;
    }
  }

  // Forms --------------------------------------------------------------------------------
  async function submit(form) {
    const multipart = form.enctype === "multipart/form-data";
    const data = multipart ? new FormData(form) : new URLSearchParams(new FormData(form));
    try {
      const response = await fetch(form.action, {
        method: "POST",
        body: data,
        headers: { "Accept": "application/json" },
        credentials: "same-origin",
      });
      const answer = await response.json();
      setUndo(answer);
      if (answer.ok) {
        showMessage("");
        if (form.classList.contains("add")) { form.reset(); }
        if (form.dataset.after === "reload") { location.reload(); }
      } else {
        showMessage(answer.message);
      }
    } catch (error) {
      showMessage("The server did not answer: is it still running?");
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
    event.preventDefault();
    submit(form);
  });

  // Keyboard: Ctrl+Z undoes, Ctrl+Shift+Z (or Ctrl+Y) redoes, unless typing in a field.
  document.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const target = event.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
    if (typing && target.value !== "") return;
    const key = event.key.toLowerCase();
    let form = null;
    if (key === "z" && !event.shiftKey) form = document.getElementById("undo-form");
    if ((key === "z" && event.shiftKey) || key === "y") form = document.getElementById("redo-form");
    if (!form) return;
    event.preventDefault();
    const button = form.querySelector("button");
    if (button && !button.disabled) submit(form);
  });

  // Live lists -----------------------------------------------------------------------------
  function fragment(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    return template.content.firstElementChild;
  }

  function container(root, section) {
    if (section === undefined || section === null || section === "") {
      const first = root.querySelector(":scope > [data-section]");
      return first ? first.querySelector(".rows") : root;
    }
    const shell = Array.from(root.querySelectorAll(":scope > [data-section]")).find((s) => s.dataset.section === section);
    return shell ? shell.querySelector(".rows") || shell : root;
  }

  // Keeps focus where it was: an element inside a row that moves or is redrawn is found
  // again by its row, form and field, and focused again.
  function rememberFocus() {
    const active = document.activeElement;
    if (!active || active === body) return null;
    const row = active.closest(".row");
    if (!row) return { element: active };
    const form = active.closest("form");
    return {
      element: active, rowID: row.id,
      formClass: form ? form.className : null,
      name: active.getAttribute("name"), tag: active.tagName,
      value: active.value, start: active.selectionStart, end: active.selectionEnd,
    };
  }
  function restoreFocus(memory) {
    if (!memory) return;
    if (document.contains(memory.element)) {
      if (document.activeElement !== memory.element) memory.element.focus({ preventScroll: true });
      return;
    }
    if (!memory.rowID) return;
    const row = document.getElementById(memory.rowID);
    if (!row) return;
    const scope = memory.formClass ? row.querySelector("form." + memory.formClass.split(" ").join(".")) || row : row;
    const again = memory.name ? scope.querySelector(`[name="${memory.name}"]:not([type=hidden])`) : scope.querySelector(memory.tag);
    if (!again) return;
    again.focus({ preventScroll: true });
    if (again instanceof HTMLInputElement && memory.value !== undefined) {
      again.value = memory.value;
      try { again.setSelectionRange(memory.start, memory.end); } catch (_) { /* not a text field */ }
    }
  }

  // A count shown outside a live list (a project's "3 bugs") follows the list's rows:
  // an element with data-counts="ID" counts the rows of the list with that id.
  function recount(root) {
    if (!root.id) return;
    const rows = root.querySelectorAll(".row").length;
    for (const counter of document.querySelectorAll(`[data-counts="${root.id}"]`)) {
      counter.textContent = rows === 1 ? `1 ${counter.dataset.one}` : `${rows} ${counter.dataset.many}`;
    }
  }

  function apply(root, ops) {
    const focus = rememberFocus();
    for (const op of ops) {
      switch (op.op) {
        case "deleteSection": {
          const shell = Array.from(root.querySelectorAll(":scope > [data-section]")).find((s) => s.dataset.section === op.section);
          if (shell) shell.remove();
          break;
        }
        case "delete": {
          const row = document.getElementById(op.id);
          if (row) row.remove();
          break;
        }
        case "insertSection": {
          const shell = fragment(op.html);
          const next = Array.from(root.querySelectorAll(":scope > [data-section]")).find((s) => s.dataset.section === op.before);
          root.insertBefore(shell, next || null);
          break;
        }
        case "insert":
        case "move": {
          const existing = document.getElementById(op.id);
          const row = fragment(op.html);
          if (existing) existing.remove();
          const parent = container(root, op.section);
          const next = op.before ? document.getElementById(op.before) : null;
          parent.insertBefore(row, next && next.parentElement === parent ? next : null);
          break;
        }
        case "update": {
          const row = document.getElementById(op.id);
          if (row) row.replaceWith(fragment(op.html));
          break;
        }
      }
    }
    restoreFocus(focus);
    recount(root);
    root.dispatchEvent(new CustomEvent("live-change", { bubbles: true, detail: ops }));
  }

  for (const root of document.querySelectorAll("[data-live]")) {
    const url = `${root.dataset.live}?tab=${encodeURIComponent(tab)}&csrf=${encodeURIComponent(csrf)}`;
    const source = new EventSource(url);
    source.addEventListener("reset", (event) => {
      const data = JSON.parse(event.data);
      const focus = rememberFocus();
      root.innerHTML = data.html;
      restoreFocus(focus);
      recount(root);
      setUndo(data);
      showStatus("");
      root.dataset.liveState = "open";
      root.dispatchEvent(new CustomEvent("live-reset", { bubbles: true }));
    });
    source.addEventListener("change", (event) => {
      const data = JSON.parse(event.data);
      apply(root, data.ops);
    });
    source.addEventListener("error", () => {
      root.dataset.liveState = "reconnecting";
      showStatus("Reconnecting to the server…");
      // Refused rather than dropped: the server restarted and no longer knows this page's
      // session. Load the page again, which starts a new one.
      if (source.readyState === EventSource.CLOSED) setTimeout(() => location.reload(), 1000);
    });
  }
})();
