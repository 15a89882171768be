/* Live follow on the evening and shared pages (the live poll, browser side).
 * It asks the live URL (?version=<what it shows>) every few seconds; 304 means nothing
 * changed. It stops while the tab is hidden, slows down when nothing changes for long,
 * says when the server is lost and recovers by itself. An open new-deal form that nobody
 * has touched follows the updates (its number and dealer); a touched one keeps what was
 * typed and only its totals strip changes (a save then asks: the deal-number check). */
(function () {
  "use strict";
  const FAST = 4000, SLOW = 15000, SLOWEST = 30000, LOST_MAX = 30000, TIMEOUT = 15000;
  let delay = FAST, quietSince = Date.now(), timer = null, busy = false, lost = false;

  function box() { return document.getElementById("live-totals"); }
  function status() { return document.getElementById("live-status"); }

  function schedule(ms) {
    clearTimeout(timer);
    if (!document.hidden) timer = setTimeout(poll, ms);
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

  // Mark a deal form touched as soon as the scorer types or taps in it.
  function touch(event) {
    const form = event.target.closest && event.target.closest("form.deal-form");
    if (form && event.isTrusted) form.setAttribute("data-touched", "");
  }
  document.addEventListener("input", touch, true);
  document.addEventListener("change", touch, true);

  function followEntry(template) {
    const id = template.getAttribute("data-next-entry");
    const section = document.getElementById("game-" + id);
    const fresh = template.content.querySelector("section.deal-entry");
    if (!section || !fresh) return;
    const form = section.querySelector("form.deal-form");
    const number = form && form.querySelector("input[name='deal-number']");
    const next = fresh.querySelector("input[name='deal-number']");
    if (!number || !next || number.value === next.value) return; // still the same deal
    const untouched = form && form.hasAttribute("data-fresh") && !form.hasAttribute("data-touched") &&
      !form.classList.contains("htmx-request");
    if (untouched) {
      const node = document.importNode(fresh, true);
      section.replaceWith(node);
      if (window.htmx) window.htmx.process(node);
      return;
    }
    const strip = section.querySelector(".strip-scores");
    const newStrip = fresh.querySelector(".strip-scores");
    if (strip && newStrip) strip.replaceWith(document.importNode(newStrip, true));
  }

  function apply(html) {
    const doc = new DOMParser().parseFromString("<body>" + html + "</body>", "text/html");
    const incoming = doc.getElementById("live-totals");
    const current = box();
    if (!incoming || Number(incoming.getAttribute("data-version")) <= Number(current.getAttribute("data-version"))) {
      return; // an answer overtaken by a save made here: what shows is newer
    }
    Array.prototype.forEach.call(doc.body.children, function (node) {
      if (node.tagName === "TEMPLATE") { followEntry(node); return; }
      const old = node.id && document.getElementById(node.id);
      if (!old) return;
      node.removeAttribute("hx-swap-oob");
      const fresh = document.importNode(node, true);
      old.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
    });
  }

  function poll() {
    const el = box();
    if (!el || busy || document.hidden) return;
    busy = true;
    const url = el.getAttribute("data-live-url") + "?version=" + encodeURIComponent(el.getAttribute("data-version"));
    const controller = window.AbortController ? new AbortController() : null;
    const stop = setTimeout(function () { if (controller) controller.abort(); }, TIMEOUT);
    fetch(url, {
      headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store",
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      if (response.status === 304) return null;
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.text();
    }).then(function (html) {
      setLost(false);
      if (html === null) { delay = quietDelay(); return; }
      apply(html);
      quietSince = Date.now();
      delay = FAST;
    }).catch(function () {
      setLost(true);
      delay = Math.min(Math.max(delay * 2, FAST), LOST_MAX);
    }).then(function () {
      clearTimeout(stop);
      busy = false;
      schedule(delay);
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { clearTimeout(timer); return; }
    delay = FAST;
    schedule(0);
  });
  window.addEventListener("online", function () { delay = FAST; schedule(0); });
  // A deal saved here brings the new version with it: the next answer is a 304.
  if (box()) schedule(FAST);
})();
