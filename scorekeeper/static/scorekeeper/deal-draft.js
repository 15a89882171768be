/* Drafts of the deal being typed on the evening page: a reload (or the phone closing the tab)
 * in the middle of a deal loses nothing, a counted pile included.
 *
 * Every answer typed or tapped in a new-deal form (id "deal-form-<game id>", posted in place)
 * is kept in localStorage under the account, the game's deals address (evening and game) and
 * the deal's number: "sk-draft:<account>:<action>" -> {number, fields, at}. A form the counter
 * filled is kept as it arrives. Opening the page again, the draft goes back into the form of
 * the same deal number only (the server's blank form, or the one the offline queue readied:
 * SKDealQueuePage.ready), with "Draft restored" and a button to discard it. A draft goes when
 * its deal is saved (a form with a later number arrives: a save's answer, the live follow's
 * scorekeeper:next-deal when another phone saved it), when it is kept in the offline queue
 * (SKDraft.forget, deal-queue.js), when it is discarded, and after KEEP_MS. Another account
 * on the same phone never sees it (no account, no drafts). Texts: #sk-pwa.
 */
(function () {
  "use strict";
  const KEEP_MS = 12 * 3600 * 1000;
  const PREFIX = "sk-draft:";
  const SKIPPED = ["csrfmiddlewaretoken", "deal-number"];
  const configBlock = document.getElementById("sk-pwa");
  const config = configBlock ? JSON.parse(configBlock.textContent) : {};
  const texts = config.texts || {};
  let store = null;
  try {
    store = window.localStorage;
  } catch (error) {
    store = null; // storage refused (a private mode): no drafts
  }
  const account = config.userId;
  window.SKDraft = { forget: () => {} };
  if (!store || account === null || account === undefined) return;

  // The evening's new-deal form (not the correction of the edit page).
  function entryForm(element) {
    const form = element && element.closest ? element.closest("form.deal-form") : null;
    return form && form.matches("[hx-post]") && /^deal-form-\d+$/.test(form.id) ? form : null;
  }

  function keyOf(form) {
    return PREFIX + account + ":" + new URL(form.action, location.href).pathname;
  }

  function numberOf(form) {
    const field = form.elements["deal-number"];
    return field && /^\d+$/.test(field.value) ? Number(field.value) : 0;
  }

  function read(form) {
    try {
      const draft = JSON.parse(store.getItem(keyOf(form)) || "null");
      return draft && Array.isArray(draft.fields) ? draft : null;
    } catch (error) {
      return null;
    }
  }

  function drop(form) {
    try { store.removeItem(keyOf(form)); } catch (error) { /* nothing kept */ }
  }

  function fieldsOf(form) {
    const fields = [];
    for (const [name, value] of new FormData(form)) {
      if (typeof value === "string" && !SKIPPED.includes(name)) fields.push([name, value]);
    }
    return fields;
  }

  function write(form) {
    const number = numberOf(form);
    if (!number) return;
    try {
      store.setItem(keyOf(form), JSON.stringify({ number: number, fields: fieldsOf(form), at: Date.now() }));
    } catch (error) {
      // Storage full: the form still works, only the draft is not kept.
    }
  }

  // Puts ``fields`` into the form: what a draft holds (or what the form held before it).
  function fill(form, fields) {
    const values = new Map();
    for (const [name, value] of fields) values.set(name, (values.get(name) || []).concat([value]));
    for (const element of Array.from(form.elements)) {
      const name = element.name;
      if (!name || SKIPPED.includes(name) || element.type === "submit" || element.type === "button") continue;
      const given = values.get(name) || [];
      if (element.type === "checkbox" || element.type === "radio") {
        const checked = given.includes(element.value);
        if (element.checked !== checked) {
          element.checked = checked;
          if (name === "deal-sitting_out") element.dispatchEvent(new Event("change", { bubbles: true }));
        }
      } else if (element.tagName === "SELECT") {
        for (const option of Array.from(element.options)) option.selected = given.includes(option.value);
      } else if (values.has(name)) {
        element.value = given[0];
      }
    }
  }

  function note(form, onDiscard) {
    const box = document.createElement("p");
    box.className = "message message-info draft-note";
    box.setAttribute("role", "status");
    const text = document.createElement("span");
    text.textContent = texts.draftRestored || "";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button button-small";
    button.textContent = texts.draftDiscard || "";
    button.addEventListener("click", () => { box.remove(); onDiscard(); });
    box.append(text, " ", button);
    form.prepend(box);
  }

  // At load: the server's blank form of the draft's deal gets the draft back; a form the
  // counter filled is the newest draft; any other number's draft is gone for good.
  function restore(form) {
    const draft = read(form);
    if (!form.hasAttribute("data-fresh")) {
      if (!form.querySelector(".error-summary, .errorlist")) write(form);
      return;
    }
    if (!draft) return;
    if (draft.number !== numberOf(form) || Date.now() - draft.at > KEEP_MS) {
      drop(form);
      return;
    }
    if (form.hasAttribute("data-touched")) return; // typed in already: that is the draft now
    const before = fieldsOf(form);
    const preview = form.querySelector(".preview");
    const shown = preview ? Array.from(preview.childNodes) : [];
    fill(form, draft.fields);
    // A bonus answered in the draft: its section open, as the scorer had it.
    const bonuses = form.querySelector("details.bonuses");
    if (bonuses) {
      const names = new Set(Array.from(bonuses.querySelectorAll("[name]"), (input) => input.name));
      const of = (fields) => JSON.stringify(fields.filter(([name]) => names.has(name)));
      if (of(draft.fields) !== of(before)) bonuses.open = true;
    }
    // Touched: the live follow never replaces it (live.js).
    form.setAttribute("data-touched", "");
    form.dispatchEvent(new Event("change", { bubbles: true })); // its score in the preview
    note(form, () => {
      drop(form);
      fill(form, before);
      form.removeAttribute("data-touched");
      if (preview) setTimeout(() => preview.replaceChildren(...shown), 120);
    });
  }

  // The deal's number moved on (saved here or by another phone): its draft is done.
  function forgetIfPast(form, number) {
    const draft = read(form);
    if (draft && draft.number < number) drop(form);
  }

  function onEdit(event) {
    const form = entryForm(event.target);
    if (form && event.isTrusted) write(form);
  }
  document.addEventListener("input", onEdit, true);
  document.addEventListener("change", onEdit, true);

  document.addEventListener("htmx:load", (event) => {
    const root = event.target;
    if (!root.querySelectorAll) return;
    const forms = root.matches("form.deal-form") ? [root] : Array.from(root.querySelectorAll("form.deal-form"));
    for (const form of forms) if (entryForm(form)) forgetIfPast(form, numberOf(form));
  });
  document.addEventListener("scorekeeper:next-deal", (event) => {
    const form = document.getElementById("deal-form-" + event.detail.game);
    if (entryForm(form)) forgetIfPast(form, event.detail.number);
  });

  window.SKDraft = { forget: (form) => { if (entryForm(form)) drop(form); } };

  // Old drafts of this account (an evening never opened again) do not pile up.
  function tidy() {
    for (let i = store.length - 1; i >= 0; i -= 1) {
      const key = store.key(i);
      if (!key || !key.startsWith(PREFIX + account + ":")) continue;
      try {
        const draft = JSON.parse(store.getItem(key) || "null");
        if (!draft || Date.now() - draft.at > KEEP_MS) store.removeItem(key);
      } catch (error) {
        store.removeItem(key);
      }
    }
  }

  // Once the queue readied the forms and htmx listens to them (the preview asks at once).
  const queue = window.SKDealQueuePage;
  const loaded = new Promise((resolve) => {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => resolve());
    else resolve();
  }).then(() => new Promise((resolve) => setTimeout(resolve)));
  Promise.all([queue && queue.ready, loaded]).then(() => {
    tidy();
    for (const form of Array.from(document.querySelectorAll("form.deal-form"))) {
      if (entryForm(form)) restore(form);
    }
  });
})();
