/* The deal-entry loop of the evening page (and the deal form of the edit page).
 *
 * Arriving at the evening, the next deal's section comes under the thumb. After a save, a
 * refusal or a conflict, it puts the answered section there and focus on what comes next
 * (the first question, the error summary or the question of the deal-number check), then
 * puts the sheet's changed rows in place (live.js, SKSheet) and the chart when idle. A save
 * tells the server the page's moment (sheet-since) so that only the changed rows come back;
 * the preview request a tap on Save would start is dropped. Choosing the bouts moves on to
 * the points, and Enter there saves. Focus never stays hidden under the sticky strip or the
 * bar with Save. It keeps the bonus section open if the scorer left it open, and it sends
 * "Count the pile" to the counter as a whole page, without the CSRF token in the address.
 * The bonus section, opened by a tap, comes up above the bar with Save.
 *
 * A second tap never reaches the next deal: in the form a save brings (or the offline queue
 * readies), a tap on the spot where Save was tapped reaches nothing for SETTLE_MS, and a
 * Save of a form nobody has touched since it came does nothing: a tap meant for the deal
 * just saved can neither change the next one nor submit it empty.
 */
(function () {
  "use strict";
  const bonusesOpen = {}; // game id -> the scorer left the bonus section open
  const saving = {}; // game id -> a save of that game's form is on its way
  // Longer than the gap of a double tap after the answer (180 to 600 ms seen at the table),
  // shorter than reading the next form before its first tap.
  const SETTLE_MS = 1000;
  const SAME_SPOT_PX = 48; // a finger's tap lands within this of the one before
  let lastSave = null; // where and when Save was tapped: {x, y, at}
  let settled = null; // the form just come: {section, until, x, y}

  // A form just came under the finger that tapped Save: for a moment, a tap on that same
  // spot is the second tap of a double tap, aimed at the deal just sent: it reaches nothing.
  // Taps elsewhere go through at once, and so does focus. The next deal's form (not a
  // refusal or a question, which hold the deal typed) also keeps its Save from doing
  // anything until something in it is touched (data-touched, below).
  function settle(section, then) {
    const form = section.querySelector("form.deal-form");
    if (form && !section.querySelector(".deal-conflict, .error-summary")) {
      form.setAttribute("data-arrived", "");
    }
    // The tap that sent this save (not one long before it: a save by Enter taps nothing).
    const now = performance.now();
    if (lastSave && now - lastSave.at < 15000) settled = { section, until: now + SETTLE_MS, ...lastSave };
    lastSave = null;
    if (then) then();
  }

  document.addEventListener("pointerdown", (event) => {
    const save = event.target.closest && event.target.closest(".save-deal");
    if (save && save.form && isSave(save.form)) {
      lastSave = { x: event.clientX, y: event.clientY, at: performance.now() };
    }
  }, true);

  // The first tap after the form came decides: on the old spot, it is the double tap's
  // second (and so is any tap there until SETTLE_MS is over); elsewhere, the scorer has
  // moved on and nothing more is held back.
  function onTheOldSpot(event) {
    if (!settled || performance.now() > settled.until || !settled.section.isConnected) {
      settled = null;
      return false;
    }
    const there = settled.section.contains(event.target) &&
      Math.hypot(event.clientX - settled.x, event.clientY - settled.y) <= SAME_SPOT_PX;
    if (!there) settled = null;
    return there;
  }
  ["pointerdown", "mousedown", "touchstart", "click"].forEach((type) => {
    document.addEventListener(type, (event) => {
      const point = event.touches ? event.touches[0] : event;
      if (point && onTheOldSpot({ target: event.target, clientX: point.clientX, clientY: point.clientY })) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    }, { capture: true, passive: false });
  });
  window.SKEntry = { settle: settle };

  // Touched: the scorer typed or tapped in it (live.js reads the mark too).
  function touch(event) {
    const form = event.target.closest && event.target.closest("form.deal-form");
    if (form && event.isTrusted) form.setAttribute("data-touched", "");
  }
  document.addEventListener("input", touch, true);
  document.addEventListener("change", touch, true);

  function gameOf(form) {
    return form && form.id && form.id.indexOf("deal-form-") === 0 ? form.id.slice(10) : null;
  }

  // The evening's new-deal form (the edit page's form is boosted, not posted in place).
  function isSave(elt) {
    return elt && elt.matches && elt.matches("form.deal-form[hx-post]") && gameOf(elt);
  }

  let openedByTap = null; // the bonus section whose summary the scorer just tapped
  document.addEventListener("click", (event) => {
    const summary = event.target.closest && event.target.closest("details.bonuses > summary");
    openedByTap = summary ? summary.parentElement : null;
  }, true);

  document.addEventListener("toggle", (event) => {
    const details = event.target;
    if (!details.matches || !details.matches("details.bonuses")) return;
    const id = gameOf(details.closest("form"));
    if (id) bonusesOpen[id] = details.open;
    // Opened by a tap: its questions come up above the bar with Save, without a swipe (the
    // summary stays below the sticky strip). Opened again for the next deal: left where it is.
    if (details.open && openedByTap === details) bringAboveTheBar(details);
    openedByTap = null;
  }, true);

  function bringAboveTheBar(details) {
    const section = details.closest("section.deal-entry");
    const bar = section && section.querySelector(".entry-bar");
    const strip = section && section.querySelector(".totals-strip");
    if (!bar) return;
    const bottom = details.getBoundingClientRect().bottom;
    const barTop = bar.getBoundingClientRect().top;
    const room = details.querySelector("summary").getBoundingClientRect().top -
      (strip ? strip.getBoundingClientRect().bottom : 0) - 4;
    const by = Math.min(bottom - barTop + 4, room);
    if (by > 0) window.scrollBy(0, by);
  }

  document.addEventListener("htmx:configRequest", (event) => {
    if (!isSave(event.detail.elt) || !window.SKSheet) return;
    event.detail.parameters["sheet-since"] = window.SKSheet.since();
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const elt = event.detail.elt;
    if (isSave(elt) && elt.hasAttribute("data-arrived") && !elt.hasAttribute("data-touched")) {
      event.preventDefault(); // the second tap of a double tap on Save: not a deal
      return;
    }
    if (isSave(elt)) { saving[gameOf(elt)] = true; return; }
    // A preview asked while the form is being saved would be thrown away: do not ask.
    const form = elt.closest && elt.closest(".preview") && elt.closest("form.deal-form");
    if (form && (form.classList.contains("htmx-request") || saving[gameOf(form)])) {
      event.preventDefault();
    }
  });

  function place(section) {
    const id = section.getAttribute("data-game");
    if (!id || !saving[id]) return; // a live update or the first load: leave the page be
    delete saving[id];
    const form = section.querySelector("form.deal-form");
    const details = section.querySelector("details.bonuses");
    if (details && bonusesOpen[id]) details.open = true;
    const target = section.querySelector(".deal-conflict, .error-summary") ||
      (form && form.querySelector(":scope > fieldset input"));
    section.scrollIntoView({ block: "start" });
    // Saved, refused or asked: whatever came is not changed by the tap after the first.
    settle(section, () => { if (target) target.focus({ preventScroll: true }); });
    // The sheet's new rows once the next form is on screen: they are below it.
    const changes = document.getElementById("sheet-changes");
    if (changes && window.SKSheet) requestAnimationFrame(() => setTimeout(() => window.SKSheet.apply(changes)));
  }

  // Who sits out this deal (the dealer at 6) is not offered as taker, partner or misère.
  function syncSittingOut(form) {
    const out = {};
    form.querySelectorAll("input[name='deal-sitting_out']:checked").forEach((box) => { out[box.value] = true; });
    form.querySelectorAll(".bid-row").forEach((row) => {
      row.hidden = !!out[row.getAttribute("data-player")] && !row.querySelector("input:checked");
    });
    form.querySelectorAll("input[name='deal-taker'], input[name='deal-partner'], input[name='deal-miseres']").forEach((input) => {
      const label = input.closest("label");
      if (label) label.hidden = !!out[input.value] && !input.checked;
    });
  }

  document.addEventListener("change", (event) => {
    const input = event.target;
    if (input.name === "deal-sitting_out" && input.form) syncSittingOut(input.form);
    // The bouts chosen, the points come next (the numeric keyboard opens on a phone).
    if (input.name === "deal-bouts" && input.form && event.isTrusted) {
      const points = input.form.elements["deal-points"];
      if (points && !points.value) points.focus();
    }
  });

  // Enter in the points saves the deal (the form's first button counts the pile).
  document.addEventListener("keydown", (event) => {
    const input = event.target;
    if (event.key !== "Enter" || input.name !== "deal-points" || !input.form) return;
    const save = input.form.querySelector(".save-deal");
    if (!save) return;
    event.preventDefault();
    input.form.requestSubmit(save);
  });

  // Back from the counter: the preview shows the count at once.
  function askPreview(form) {
    if (!form.hasAttribute("data-returned")) return;
    form.removeAttribute("data-returned");
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function onLoad(elt) {
    if (!elt.querySelectorAll) return;
    const forms = elt.matches("form.deal-form") ? [elt] : Array.from(elt.querySelectorAll("form.deal-form"));
    forms.forEach((form) => { syncSittingOut(form); askPreview(form); });
    if (elt.matches("section.deal-entry")) place(elt);
  }

  document.addEventListener("htmx:load", (event) => { onLoad(event.target); });

  // Arriving at the evening (or back after a correction): the next question in view.
  function arrive() {
    const section = document.querySelector("section.deal-entry");
    if (!section) return;
    const hash = window.location.hash;
    if (hash && hash !== "#" + section.id) return; // the undo, the owner's tools...
    section.scrollIntoView({ block: "start" });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", arrive);
  else arrive();
  // A boosted page (the correction saved from the edit page) arrives the same way.
  document.addEventListener("htmx:afterSettle", (event) => { if (event.detail.boosted) arrive(); });

  // Focus never hidden under the sticky strip (top) or the bar with Save (bottom).
  document.addEventListener("focusin", (event) => {
    const target = event.target;
    const section = target.closest && target.closest("section.deal-entry");
    if (!section || target.closest(".totals-strip, .entry-bar")) return;
    const rect = target.getBoundingClientRect();
    const strip = section.querySelector(".totals-strip");
    const bar = section.querySelector(".entry-bar");
    const top = strip ? strip.getBoundingClientRect().bottom : 0;
    const barRect = bar ? bar.getBoundingClientRect() : null;
    const bottom = barRect && barRect.bottom >= window.innerHeight - 1 ? barRect.top : window.innerHeight;
    if (rect.top < top) window.scrollBy(0, rect.top - top - 8);
    else if (rect.bottom > bottom) window.scrollBy(0, rect.bottom - bottom + 8);
  });

  // "Count the pile": a GET of the counter with the form's fields (minus the CSRF token),
  // as a whole page; the counter hands the count back to the form.
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[data-count-pile]");
    if (!button || !button.form) return;
    event.preventDefault();
    event.stopPropagation();
    const data = new FormData(button.form);
    data.delete("csrfmiddlewaretoken");
    data.append(button.name, button.value);
    window.location.assign(button.formAction + "?" + new URLSearchParams(data).toString());
  }, true);
})();
