/* The deal-entry loop of the evening page (and the deal form of the edit
 * page). After a save, a refusal or a conflict, it puts the answered section under the thumb
 * and focus on what comes next (the first question, the error summary or the question of
 * the deal-number check); it keeps the bonus section open if the scorer left it open; and it sends
 * "Count the pile" to the counter as a whole page, without the CSRF token in the address. */
(function () {
  "use strict";
  const bonusesOpen = {}; // game id -> the scorer left the bonus section open
  const saving = {}; // game id -> a save of that game's form is on its way

  function gameOf(form) {
    return form && form.id && form.id.indexOf("deal-form-") === 0 ? form.id.slice(10) : null;
  }

  document.addEventListener("toggle", function (event) {
    const details = event.target;
    if (!details.matches || !details.matches("details.bonuses")) return;
    const id = gameOf(details.closest("form"));
    if (id) bonusesOpen[id] = details.open;
  }, true);

  document.addEventListener("htmx:beforeRequest", function (event) {
    const id = gameOf(event.detail.elt);
    if (id && event.detail.elt.matches("form.deal-form")) saving[id] = true;
  });

  function firstQuestion(form) {
    return form.querySelector(":scope > fieldset input, :scope > .passed-choice input, :scope > fieldset select");
  }

  function place(section) {
    const id = section.getAttribute("data-game");
    if (!id || !saving[id]) return; // a live update or the first load: leave the page be
    delete saving[id];
    const form = section.querySelector("form.deal-form");
    const details = section.querySelector("details.bonuses");
    if (details && bonusesOpen[id]) details.open = true;
    const target = section.querySelector(".deal-conflict, .error-summary") || (form && firstQuestion(form));
    section.scrollIntoView({ block: "start" });
    if (target) target.focus({ preventScroll: true });
  }

  // Who sits out this deal (the dealer at 6) is not offered as taker or partner.
  function syncSittingOut(form) {
    const out = {};
    form.querySelectorAll("input[name='deal-sitting_out']:checked").forEach(function (box) { out[box.value] = true; });
    form.querySelectorAll("input[name='deal-taker'], input[name='deal-partner']").forEach(function (input) {
      const label = input.closest("label");
      if (label) label.hidden = !!out[input.value] && !input.checked;
    });
  }

  document.addEventListener("change", function (event) {
    if (event.target.name === "deal-sitting_out" && event.target.form) syncSittingOut(event.target.form);
  });

  function onLoad(elt) {
    if (!elt.querySelectorAll) return;
    if (elt.matches("form.deal-form")) syncSittingOut(elt);
    elt.querySelectorAll("form.deal-form").forEach(syncSittingOut);
    if (elt.matches("section.deal-entry")) place(elt);
  }

  document.addEventListener("htmx:load", function (event) { onLoad(event.target); });

  // "Count the pile": a GET of the counter with the form's fields (minus the CSRF token),
  // as a whole page; the counter hands the count back to the form.
  document.addEventListener("click", function (event) {
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
