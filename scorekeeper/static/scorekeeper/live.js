/* Live follow on the evening and shared pages (the live poll, browser side), and the score
 * sheet's changes put in place (window.SKSheet, also used after a save by deal-entry.js).
 *
 * It asks the live URL (?since=<the page's moment>, If-None-Match: "<the version it shows>")
 * when the evening's event stream says the version moved or, where no stream is given (a
 * WSGI server, too many streams, an old browser), every few seconds; 304 means nothing
 * changed. Otherwise the answer holds the totals, each game's rows that changed since the
 * page's moment (<template data-sheet-tail>: its head, the rows from one deal on, its totals)
 * and its chart (<template data-sheet-chart>, put in place when the phone is idle), and the
 * next deal's form. It stops while the tab is hidden, slows its polls down when nothing
 * changes for long, says when the server is lost and recovers by itself. An open
 * new-deal form nobody has touched follows the updates (its number and dealer); a touched one
 * keeps what was typed (a save then asks: the deal-number check). Every answer brings the
 * totals strip above the form up to date, and drops "Deal N saved" once a later deal is in.
 * It tells the page when the server answers (scorekeeper:server-answered: an offline copy is
 * live again), when the next deal's number is known (scorekeeper:next-deal, for the drafts)
 * and when the evening changed (scorekeeper:page-changed, for the messages).
 * Nothing here sets a style attribute (the no-inline rule). */
(function () {
  "use strict";
  const FAST = 4000, SLOW = 15000, SLOWEST = 30000, LOST_MAX = 30000, TIMEOUT = 15000;
  const LOST_AFTER = 8000; // a stream down this long (two of its retries) says "lost"
  let delay = FAST, quietSince = Date.now(), timer = null, busy = false, lost = false;
  let stream = null, streams = false, lostTimer = null, spoke = false;
  let wantFull = false;

  function box() { return document.getElementById("live-totals"); }
  function status() { return document.getElementById("live-status"); }

  // --- The sheet's changes -----------------------------------------------------------------

  const idle = window.requestIdleCallback
    ? (work) => window.requestIdleCallback(work, { timeout: 2000 })
    : (work) => setTimeout(work, 200);

  // One game's tail: rows from data-from on replace those shown; head and totals follow.
  // Returns false when the page cannot take it (another game, other columns): load it whole.
  function applyTail(template) {
    const id = template.getAttribute("data-sheet-tail");
    const body = document.getElementById("sheet-rows-" + id);
    const table = body && body.closest("table");
    if (!table) return false;
    if (table.getAttribute("data-columns") !== template.getAttribute("data-columns")) return false;
    const from = Number(template.getAttribute("data-from"));
    const incoming = template.content.querySelector("table");
    for (const row of Array.from(body.rows)) {
      if (Number(row.getAttribute("data-number")) >= from) row.remove();
    }
    if (body.rows.length !== from - 1) return false; // rows this page never had: all again
    for (const row of Array.from(incoming.tBodies[0].rows)) body.appendChild(document.importNode(row, true));
    const head = document.getElementById("sheet-head-" + id);
    if (head) head.replaceChildren(...Array.from(incoming.tHead.rows, (row) => document.importNode(row, true)));
    const foot = document.getElementById("sheet-foot-" + id);
    if (foot) foot.replaceChildren(...Array.from(incoming.tFoot.rows, (row) => document.importNode(row, true)));
    const section = document.getElementById("sheet-" + id);
    const count = Number(template.getAttribute("data-count"));
    if (section) {
      const empty = section.querySelector(".no-deal-yet");
      const wrap = section.querySelector(".sheet-wrap");
      if (empty) empty.hidden = count > 0;
      if (wrap) wrap.hidden = count === 0;
    }
    return true;
  }

  function applyChart(template) {
    const slot = document.getElementById("chart-" + template.getAttribute("data-sheet-chart"));
    if (slot) slot.replaceChildren(document.importNode(template.content, true));
  }

  // Puts every tail and chart of ``root`` in place; false when the sheet must come whole.
  function applySheet(root) {
    let complete = true;
    const charts = [];
    for (const template of Array.from(root.querySelectorAll("template[data-sheet-tail]"))) {
      if (!applyTail(template)) complete = false;
      template.remove();
    }
    for (const template of Array.from(root.querySelectorAll("template[data-sheet-chart]"))) {
      template.remove();
      charts.push(template);
    }
    if (charts.length) idle(() => charts.forEach(applyChart));
    if (!complete) { wantFull = true; schedule(0); }
    return complete;
  }

  // The page's moment, as the last answer gave it (a save's or the poll's).
  function since() {
    const el = box();
    return el ? el.getAttribute("data-as-of") || "" : "";
  }

  // Asked while a poll is on its way (its answer may predate what the asker knows, as the
  // deals the offline queue just sent): another poll follows it at once.
  let again = false;
  function refresh() {
    delay = FAST;
    if (busy) again = true;
    else schedule(0);
  }

  window.SKSheet = { apply: applySheet, since: since, refresh: refresh };

  // --- The poll ------------------------------------------------------------------------------

  // While the stream follows the evening there are no timed polls: only a question asked now
  // (a new version, SKSheet.refresh(), the whole sheet) or the retry of one that failed.
  function schedule(ms) {
    clearTimeout(timer);
    if (document.hidden || (ms > 0 && stream && !lost)) return;
    timer = setTimeout(poll, ms);
  }

  function setLost(value) {
    const el = status();
    if (value === lost || !el) { lost = value; return; }
    lost = value;
    el.textContent = value ? el.getAttribute("data-lost") : "";
    el.hidden = !value;
  }

  function quietDelay() {
    const quiet = Date.now() - quietSince;
    return quiet > 10 * 60000 ? SLOWEST : quiet > 2 * 60000 ? SLOW : FAST;
  }

  // A deal form is marked data-touched as soon as the scorer types or taps in it
  // (deal-entry.js).

  function sameDealer(form, fresh) {
    const mine = form.querySelector("select[name='deal-dealer']");
    const theirs = fresh.querySelector("select[name='deal-dealer'] option[selected]");
    return !mine || !theirs || mine.value === theirs.value;
  }

  // Every live answer brings the strip above the form up to date (a correction made on
  // another phone changes the totals, not the next number). An untouched form follows the
  // next deal; so does one the offline queue left saying "kept on this phone" (data-stale)
  // once the server has the deals. A touched form keeps what was typed.
  function followEntry(template) {
    const id = template.getAttribute("data-next-entry");
    const section = document.getElementById("game-" + id);
    const fresh = template.content.querySelector("section.deal-entry");
    if (!section || !fresh) return;
    const next = fresh.querySelector("input[name='deal-number']");
    if (next) {
      document.dispatchEvent(new CustomEvent("scorekeeper:next-deal", {
        detail: { game: id, number: Number(next.value) },
      }));
    }
    forgetSavedNote(section, next);
    const form = section.querySelector("form.deal-form");
    const number = form && form.querySelector("input[name='deal-number']");
    const stale = form && form.hasAttribute("data-stale");
    if (number && next && (number.value !== next.value || stale)) {
      const untouched = !form.hasAttribute("data-touched") &&
        (form.hasAttribute("data-fresh") || stale) && !form.classList.contains("htmx-request");
      if (stale && number.value === next.value && sameDealer(form, fresh)) {
        // Back from the cellar, the form the queue readied is the server's next deal already:
        // it stays (a tap on it is never lost to a redraw), it only stops saying "kept".
        form.removeAttribute("data-stale");
        const preview = form.querySelector(".preview");
        const freshPreview = fresh.querySelector(".preview");
        if (preview) preview.classList.remove("stale");
        if (preview && freshPreview && untouched) preview.replaceChildren(...document.importNode(freshPreview, true).childNodes);
      } else if (untouched) {
        const node = document.importNode(fresh, true);
        const note = section.querySelector(".saved-note");
        if (note) node.querySelector(".strip-line").appendChild(note); // still true: it stays
        section.replaceWith(node);
        if (window.htmx) window.htmx.process(node);
        return;
      }
    }
    const strip = section.querySelector(".strip-scores");
    const newStrip = fresh.querySelector(".strip-scores");
    const place = section.querySelector(".totals-strip");
    if (newStrip && strip) strip.replaceWith(document.importNode(newStrip, true));
    else if (newStrip && place) place.appendChild(document.importNode(newStrip, true));
    else if (strip && !newStrip) strip.remove();
  }

  // "Deal 23 saved" is true while deal 23 is the last one: it goes once the server has a
  // later deal (another phone's, or the offline queue's).
  function forgetSavedNote(section, next) {
    const note = section.querySelector(".saved-note[data-number]");
    if (note && next && Number(next.value) > Number(note.getAttribute("data-number")) + 1) note.remove();
  }

  function apply(html) {
    const doc = new DOMParser().parseFromString("<body>" + html + "</body>", "text/html");
    const incoming = doc.getElementById("live-totals");
    const current = box();
    if (!incoming || Number(incoming.getAttribute("data-version")) < Number(current.getAttribute("data-version"))) {
      return; // an answer overtaken by a save made here: what shows is newer
    }
    if (incoming.getAttribute("data-games") !== current.getAttribute("data-games")) {
      window.location.reload(); // a game started or went: the page changes as a whole
      return;
    }
    const changed = incoming.getAttribute("data-version") !== current.getAttribute("data-version");
    current.replaceWith(document.importNode(incoming, true));
    applySheet(doc.body);
    for (const template of Array.from(doc.body.querySelectorAll("template[data-next-entry]"))) {
      followEntry(template);
    }
    // The page's messages about what was done here ("Deal 20 is back", the undo) are no
    // longer the latest news (messages.js).
    if (changed) document.dispatchEvent(new CustomEvent("scorekeeper:page-changed"));
  }

  // The server answers (a poll, or the stream opening): a page opened from its last copy
  // offline is live again (pwa.js), and the banner of a failed request goes.
  function answered() {
    setLost(false);
    document.dispatchEvent(new CustomEvent("scorekeeper:server-answered"));
    const banner = document.getElementById("net-status");
    if (banner && !banner.hidden) banner.hidden = true;
  }

  function poll() {
    const el = box();
    if (!el || busy || document.hidden) return;
    busy = true;
    const full = wantFull;
    wantFull = false;
    const url = el.getAttribute("data-live-url") + "?since=" + encodeURIComponent(full ? "" : since());
    const headers = { "HX-Request": "true" };
    if (!full) headers["If-None-Match"] = '"' + el.getAttribute("data-version") + '"';
    const controller = window.AbortController ? new AbortController() : null;
    const stop = setTimeout(() => { if (controller) controller.abort(); }, TIMEOUT);
    fetch(url, {
      headers: headers, credentials: "same-origin", cache: "no-store",
      signal: controller ? controller.signal : undefined,
    }).then((response) => {
      if (response.status === 304) return null;
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.text();
    }).then((html) => {
      answered();
      if (html === null) { delay = quietDelay(); return; }
      apply(html);
      quietSince = Date.now();
      delay = FAST;
    }).catch(() => {
      setLost(true);
      delay = Math.min(Math.max(delay * 2, FAST), LOST_MAX);
    }).then(() => {
      clearTimeout(stop);
      busy = false;
      schedule(again ? 0 : delay);
      again = false;
    });
  }

  // --- The event stream --------------------------------------------------------------------

  // With data-events-url (evening_events.py) the page holds one stream open and asks the
  // live URL only when a "version" event differs from the version it shows (the first event
  // of each connection tells whether the page is behind). A dropped stream the browser opens
  // again by itself after the server's retry: "lost" shows only if that lasts. A stream the
  // server will not give (204 under WSGI or past its streams, a refusal page) closes: the
  // timed polls take over for the page's life, and the first one asks at once (the page
  // may be behind since it was drawn, or since the stream last spoke).
  function openStream() {
    const url = box() && box().getAttribute("data-events-url");
    if (!url || stream || document.hidden) return;
    const source = new EventSource(url);
    stream = source;
    source.onopen = () => {
      spoke = true;
      clearTimeout(lostTimer);
      lostTimer = null;
      answered();
    };
    source.addEventListener("version", (event) => {
      const el = box();
      if (el && event.data !== el.getAttribute("data-version")) refresh();
    });
    source.onerror = () => {
      if (source !== stream) return; // closed here meanwhile (the tab hidden)
      if (source.readyState === EventSource.CLOSED) {
        closeStream();
        streams = false;
        // Refused at once (the page just drawn, as under WSGI): the polls' usual first wait.
        if (spoke) refresh();
        else schedule(FAST);
      } else if (!lostTimer) {
        lostTimer = setTimeout(() => { lostTimer = null; setLost(true); }, LOST_AFTER);
      }
    };
  }

  function closeStream() {
    clearTimeout(lostTimer);
    lostTimer = null;
    if (stream) stream.close();
    stream = null;
  }

  // Hidden, the page neither polls nor holds a stream (a phone in a pocket keeps no server
  // slot); shown again, it asks at once, or opens its stream, whose first event says
  // whether the page is behind.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) { clearTimeout(timer); closeStream(); return; }
    delay = FAST;
    if (streams) openStream();
    else schedule(0);
  });
  window.addEventListener("online", refresh);
  // A deal saved here brings the new version with it: the next answer is a 304.
  if (box()) {
    streams = Boolean(window.EventSource && box().hasAttribute("data-events-url"));
    if (streams) openStream();
    else schedule(FAST);
  }
})();
