/* Deals entered without network: keeps them on the phone and shows them until they are sent.
 *
 * A deal form (id "deal-form-<game id>") is kept in the queue (deal-queue-store.js) instead of
 * being posted when the phone is offline at Save, or when the table-on-a-phone script reports
 * a save that got no answer (the cancelable "scorekeeper:save-failed" event, reason "network"
 * or "timeout"). The form is then ready for the next deal: new one-time key, next number, next
 * dealer. The waiting deals show in the score sheet and in a box above it, with a count in
 * the header; the queue is sent on "online", on page show, by Background Sync, at load, every
 * 20 seconds while deals wait (a phone can believe it is online with no way to the server, as
 * on a cellar's Wi-Fi), and when the scorer taps "Send now".
 * Each kept deal notes the account that typed it (userId): only that account's pages send it
 * or offer to; another account's page lists it as waiting for its owner (a shared phone).
 * Texts come from the JSON block #sk-pwa (templates/scorekeeper/install/_pwa_head.html).
 */
"use strict";

(function () {
  const queue = window.SKDealQueue;
  const configBlock = document.getElementById("sk-pwa");
  if (!queue || !configBlock || !("indexedDB" in window)) return;
  const config = JSON.parse(configBlock.textContent);
  const texts = config.texts;
  const format = (text, values) => text.replace(/%\((\w+)\)s/g, (all, name) => values[name]);

  // A new-deal form (the save-failed hand-off): id "deal-form-<game id>", posting to the game's deals URL.
  // A correction (the deal edit page uses the same form) is not kept: it needs the server.
  function dealForm(element) {
    if (!(element instanceof HTMLFormElement) || !/^deal-form-\d+$/.test(element.id)) return null;
    return /\/deals\/$/.test(new URL(element.action, location.href).pathname) ? element : null;
  }

  function formOfGame(gameId) {
    return dealForm(document.getElementById(`deal-form-${gameId}`));
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    return String(Date.now()) + String(Math.random()).slice(2);
  }

  function heading(form) {
    const section = form.closest("section");
    return section ? section.querySelector("h2") : null;
  }

  function formNumber(form) {
    const field = form.elements["deal-number"];
    if (field && /^\d+$/.test(field.value)) return Number(field.value);
    const title = heading(form);
    const match = title && title.textContent.match(/\d+/);
    return match ? Number(match[0]) : 0;
  }

  const words = (node) => (node ? node.textContent.trim().replace(/\s+/g, " ") : "");

  // "Taker: Dan · Contract: Petite · Bouts…: 3 · Points: 40" from what is ticked and typed,
  // each answer with its question, for the waiting list.
  function summary(form) {
    const parts = [];
    for (const input of form.querySelectorAll("input:checked")) {
      if (input.name === "deal-sitting_out") continue;
      if (input.hasAttribute("aria-label")) { // a cell of the grid: "Ana, Garde"
        const corner = input.name === "deal-bid" && form.querySelector(".bid-corner");
        const said = input.getAttribute("aria-label");
        parts.push(corner ? `${words(corner)}: ${said}` : said);
        continue;
      }
      const label = input.closest("label") || form.querySelector(`label[for="${input.id}"]`);
      const legend = input.closest("fieldset") && input.closest("fieldset").querySelector("legend");
      if (label) parts.push(legend ? `${words(legend)}: ${words(label)}` : words(label));
    }
    for (const field of form.querySelectorAll("input[type='text'], input[type='number']")) {
      if (!field.value || !field.name.startsWith("deal-")) continue;
      const label = form.querySelector(`label[for="${field.id}"]`);
      parts.push(label ? `${words(label)}: ${field.value}` : field.value);
    }
    return parts.join(" · ");
  }

  async function keep(form) {
    const gameId = Number(form.id.split("-").pop());
    const waiting = (await queue.all()).filter((entry) => entry.gameId === gameId && mine(entry));
    const last = waiting.length ? waiting[waiting.length - 1].number : 0;
    const number = Math.max(formNumber(form), last + 1);
    const keyField = form.elements["deal-idempotency_key"];
    if (keyField && !keyField.value) keyField.value = newKey();
    const fields = [];
    for (const [name, value] of new FormData(form)) {
      if (typeof value !== "string") continue;
      fields.push([name, name === "deal-number" ? String(number) : value]);
    }
    await queue.put({
      key: keyField ? keyField.value : newKey(),
      action: form.action,
      page: location.pathname,
      gameId,
      number,
      fields,
      summary: summary(form),
      queuedAt: Date.now(),
      status: "waiting",
      loginUrl: config.loginUrl,
      userId: config.userId,
      userName: config.userName,
    });
    if (window.SKDraft) window.SKDraft.forget(form); // kept: no longer a draft
    readyForNextDeal(form, number + 1, 1);
    sayInPreview(form, texts.kept);
    // "Deal N saved" is no longer the latest news: this deal waits to be sent.
    const note = form.closest("section") && form.closest("section").querySelector(".saved-note");
    if (note) note.remove();
    // The next deal's form is under the finger that tapped Save: a second tap waits.
    const section = form.closest("section.deal-entry");
    if (section && window.SKEntry) window.SKEntry.settle(section);
    // Untouched again, and the server's form replaces it once the deals are in (live.js).
    form.removeAttribute("data-touched");
    form.setAttribute("data-stale", "");
    (heading(form) || form).scrollIntoView({block: "start"});
    askForBackgroundSync();
  }

  // The form as it was rendered, with a new key, the next number and the dealer ``turns``
  // seats further round the table than the one it shows now (every kept deal moves it on).
  function readyForNextDeal(form, number, turns) {
    const dealer = form.elements["deal-dealer"];
    const sitting = Array.from(form.querySelectorAll('input[name="deal-sitting_out"]'));
    // As rendered: does the dealer sit out (at 6)? Then the next dealer does instead.
    const renderedDealer = dealer && dealer.options ? Array.from(dealer.options).find((o) => o.defaultSelected) : null;
    const dealerSitsOut = renderedDealer && sitting.some((box) => box.defaultChecked && box.value === renderedDealer.value);
    const nextIndex = dealer && dealer.options ? (dealer.selectedIndex + turns) % dealer.options.length : -1;
    form.reset();
    const keyField = form.elements["deal-idempotency_key"];
    if (keyField) keyField.value = newKey();
    const numberField = form.elements["deal-number"];
    if (numberField) numberField.value = String(number);
    if (dealer && nextIndex >= 0) {
      dealer.selectedIndex = nextIndex;
      const newName = words(dealer.options[nextIndex]);
      // The names shown: "Dealer: X (change)" and "Next dealer: X" above the totals.
      const summaryText = form.querySelector("details.seating > summary");
      const text = summaryText && summaryText.firstChild;
      if (text && text.nodeType === Node.TEXT_NODE) {
        const shown = summaryText.getAttribute("data-dealer") || words(renderedDealer);
        text.textContent = text.textContent.replace(shown, newName);
        summaryText.setAttribute("data-dealer", newName);
      }
      const next = document.querySelectorAll(".next-dealer strong");
      if (next.length) next[next.length - 1].textContent = newName;
      if (dealerSitsOut) sitting.forEach((box) => { box.checked = box.value === dealer.value; });
      sitting.forEach((box) => box.dispatchEvent(new Event("change", {bubbles: true})));
    }
    const title = heading(form);
    if (title) title.textContent = title.textContent.replace(/\d+/, String(number));
  }

  function sayInPreview(form, text) {
    const preview = form.querySelector(".preview");
    if (preview) {
      preview.classList.remove("stale"); // what it says now is true: not struck out
      // Its unseen sizer stays: the bar keeps its height (table.css).
      preview.replaceChildren(...preview.querySelectorAll(":scope > .preview-sizer"),
        Object.assign(document.createElement("p"), {className: "muted", textContent: text}));
    }
  }

  // Without network the preview cannot ask the server: say when the score will come.
  function previewOffline() {
    if (navigator.onLine) return;
    for (const form of document.querySelectorAll("form[id^='deal-form-']")) {
      if (dealForm(form)) sayInPreview(form, texts.previewOffline);
    }
  }

  async function askForBackgroundSync() {
    try {
      const registration = await navigator.serviceWorker.ready;
      if (registration.sync) await registration.sync.register("deal-queue");
    } catch (error) {
      // No service worker or no Background Sync: "online" and page show send the queue.
    }
  }

  // A deal kept by this account (deals kept before accounts were noted belong to anyone).
  const mine = (entry) => entry.userId === undefined || entry.userId === config.userId;

  let sending = false;
  async function send() {
    if (sending || !navigator.onLine || !config.userId) return;
    sending = true;
    try {
      const before = (await queue.all()).filter(mine).length;
      await queue.sendAll(csrfToken(), config.userId);
      const after = (await queue.all()).filter(mine);
      const waiting = after.some((entry) => entry.status === "waiting");
      // Deals were stored: the entry section, its strip, the totals and the sheet show the
      // server's state again, and the network message goes (unless some deals still wait).
      if (after.length < before && !waiting && after.length) serverState();
    } finally {
      sending = false;
    }
  }

  function serverState() {
    const banner = document.getElementById("net-status");
    if (banner) banner.hidden = true;
    for (const preview of document.querySelectorAll(".preview.stale")) preview.classList.remove("stale");
    if (window.SKSheet) window.SKSheet.refresh();
  }

  // --- Showing the queue -----------------------------------------------------------------

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(text, action) {
    const node = element("button", "button button-small", text);
    node.type = "button";
    node.addEventListener("click", action);
    return node;
  }

  function statusText(entry) {
    if (!mine(entry)) return format(texts.otherAccount, {name: entry.userName || "?"});
    if (entry.status === "conflict") return format(texts.conflict, {number: entry.takenNumber});
    return entry.status === "attention" ? texts.attention : texts.waiting;
  }

  async function anotherDeal(entry) {
    // Save as the next number; the deals entered after it move up one too.
    for (const other of await queue.all()) {
      if (other.gameId === entry.gameId && other.number >= entry.number && other.key !== entry.key) {
        other.number += 1;
        other.fields = other.fields.map(([n, v]) => [n, n === "deal-number" ? String(other.number) : v]);
        await queue.put(other);
      }
    }
    entry.number = entry.takenNumber + 1;
    entry.fields = entry.fields.map(([n, v]) => [n, n === "deal-number" ? String(entry.number) : v]);
    entry.status = "waiting";
    await queue.put(entry);
    send();
  }

  function actions(entry) {
    const box = element("span", "row-actions");
    if (!mine(entry)) return box; // sent only from its own account's pages
    if (entry.status === "conflict") {
      box.append(
        button(texts.same, () => queue.remove(entry.key)),
        button(format(texts.another, {number: entry.takenNumber + 1}), () => anotherDeal(entry)),
      );
    } else if (entry.status === "waiting") {
      box.append(button(texts.sendNow, send));
    } else if (entry.status === "attention") {
      box.append(
        button(texts.retry, async () => { entry.status = "waiting"; await queue.put(entry); send(); }),
        button(texts.discard, () => queue.remove(entry.key)),
      );
    }
    return box;
  }

  function showCount(entries) {
    const nav = document.querySelector(".site-nav");
    let badge = document.getElementById("deal-queue-count");
    if (!entries.length) {
      if (badge) badge.remove();
      return;
    }
    if (!badge && nav) {
      badge = element("a", "badge badge-accent queue-count");
      badge.id = "deal-queue-count";
      nav.prepend(badge);
    }
    if (!badge) return;
    const here = entries.some((entry) => formOfGame(entry.gameId));
    badge.href = here ? "#deal-queue" : entries[0].page || "#";
    badge.textContent = format(texts.count, {count: entries.length});
  }

  function showInSheet(entries) {
    for (const row of document.querySelectorAll("tr.queued-row")) row.remove();
    const tables = document.querySelectorAll("#live-sheet table.scores");
    const table = tables[tables.length - 1];
    if (!table) return;
    const columns = table.querySelectorAll("thead th").length;
    for (const entry of entries) {
      const row = element("tr", "queued-row");
      row.append(element("td", "", String(entry.number)));
      const cell = element("td", "deal-summary", `${entry.summary} — ${statusText(entry)}`);
      cell.colSpan = Math.max(1, columns - 1);
      row.append(cell);
      table.tBodies[0].append(row);
    }
  }

  function showBox(entries) {
    let box = document.getElementById("deal-queue");
    if (!entries.length) {
      if (box) box.remove();
      document.getElementById("live-totals")?.classList.remove("provisional");
      return;
    }
    if (!box) {
      box = element("section", "deal-queue card");
      box.id = "deal-queue";
      box.setAttribute("aria-live", "polite");
      const form = formOfGame(entries[0].gameId);
      const anchor = document.getElementById("live-sheet") || (form && form.closest("section"));
      if (!anchor) return;
      anchor.before(box);
    }
    const list = element("ul", "rows");
    for (const entry of entries) {
      const item = element("li", `row queued queued-${entry.status}`);
      item.dataset.number = String(entry.number);
      const main = element("span", "row-main");
      main.append(element("strong", "", format(texts.deal, {number: entry.number})), " ");
      main.append(element("span", "", entry.summary), element("br"));
      main.append(element("span", "queued-status", statusText(entry)));
      item.append(main, actions(entry));
      list.append(item);
    }
    box.replaceChildren(element("h2", "", texts.heading), list,
      element("p", "muted small", texts.provisional));
    document.getElementById("live-totals")?.classList.add("provisional");
  }

  let shownMine = 0;
  async function show() {
    const entries = await queue.all();
    // This account's deals all in (sent from here, another tab or the worker): the page
    // shows the server's state again.
    const count = entries.filter(mine).length;
    if (shownMine && !count) serverState();
    shownMine = count;
    showCount(entries.filter(mine));
    const here = entries.filter((entry) => formOfGame(entry.gameId));
    showBox(here);
    showInSheet(here);
  }

  // --- Wiring ----------------------------------------------------------------------------

  // Offline at Save: keep the deal instead of posting it (before htmx sees the submit).
  document.addEventListener("submit", (event) => {
    const form = dealForm(event.target);
    if (!form || navigator.onLine) return;
    const formAction = event.submitter && event.submitter.getAttribute("formaction");
    if (formAction && formAction !== form.getAttribute("action")) return;
    event.preventDefault();
    event.stopPropagation();
    keep(form);
  }, true);

  // A save that got no answer (reported by the table-on-a-phone script).
  document.addEventListener("scorekeeper:save-failed", (event) => {
    const detail = event.detail || {};
    const form = dealForm(detail.form || event.target);
    if (!form || (detail.reason !== "network" && detail.reason !== "timeout")) return;
    event.preventDefault();
    keep(form);
  });


  if (typeof BroadcastChannel === "function") {
    new BroadcastChannel("sk-deal-queue").addEventListener("message", show);
  }
  window.addEventListener("sk-deal-queue-changed", show);
  document.addEventListener("htmx:afterSettle", show);
  window.addEventListener("online", send);
  window.addEventListener("offline", previewOffline);
  document.addEventListener("htmx:sendError", (event) => {
    if (event.target.closest && event.target.closest(".preview")) previewOffline();
  });
  previewOffline();

  // A page opened again (from its last copy, or before the queue is sent): its forms follow
  // on from the deals waiting, as they did when those were entered, and say "kept" until
  // the server has them (data-stale: live.js then puts the server's state in place).
  // ``ready`` resolves once they do (deal-draft.js restores a draft only then).
  const ready = queue.all().then((entries) => {
    for (const form of document.querySelectorAll("form[id^='deal-form-']")) {
      const gameId = Number(form.id.split("-").pop());
      const numbers = entries.filter((entry) => entry.gameId === gameId && mine(entry)).map((entry) => entry.number);
      const last = numbers.length ? Math.max(...numbers) : 0;
      const current = formNumber(form);
      if (dealForm(form) && current && last >= current) {
        readyForNextDeal(form, last + 1, last + 1 - current);
        form.setAttribute("data-stale", "");
        previewOffline();
      }
    }
  }).catch(() => {});
  // For the sign-out's warning (sign-out-guard.js) and the drafts (deal-draft.js).
  window.SKDealQueuePage = {send, mine, ready};
  window.addEventListener("pageshow", () => { show(); send(); });
  // Deals kept after a save that got no answer while the phone said it was online.
  setInterval(async () => {
    if ((await queue.all()).some((entry) => entry.status === "waiting" && mine(entry))) send();
  }, 20000);
  show();
})();
