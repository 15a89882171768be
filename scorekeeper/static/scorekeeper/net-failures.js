/* What the scorer sees when an htmx request gets no answer (offline,
 * network error, timeout) or an error answer (403, 500, 502...). A deal save first gets the
 * cancelable DOM event `scorekeeper:save-failed` on its form (the save-failed hand-off: an offline queue
 * may take the deal and call preventDefault); if nobody takes it, a message with Retry shows
 * in the form, which keeps everything typed (the one-time key makes a retry save it once).
 * Any other request gets the same kind of message in the banner #net-status. */
(function () {
  "use strict";
  function banner() { return document.getElementById("net-status"); }
  function text(reason, status) {
    const el = banner();
    if (!el) return "";
    if (reason === "http") return el.getAttribute("data-http").replace("{status}", status);
    return el.getAttribute(reason === "timeout" ? "data-timeout" : "data-network");
  }

  function retryButton(label, onRetry) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button button-small";
    button.textContent = label;
    button.addEventListener("click", onRetry);
    return button;
  }

  function showInForm(form, reason, status) {
    const old = form.querySelector(".save-failed");
    if (old) old.remove();
    const box = document.createElement("div");
    box.className = "message message-error save-failed";
    box.setAttribute("role", "alert");
    const p = document.createElement("p");
    p.textContent = banner().getAttribute("data-save") + " " + text(reason, status);
    box.appendChild(p);
    box.appendChild(retryButton(banner().getAttribute("data-retry"), function () {
      box.remove();
      const save = form.querySelector(".save-deal");
      if (form.requestSubmit) form.requestSubmit(save || undefined); else save.click();
    }));
    const actions = form.querySelector(".actions") || form.lastElementChild;
    actions.parentNode.insertBefore(box, actions);
    box.scrollIntoView({ block: "nearest" });
  }

  function showBanner(detail, reason, status) {
    const el = banner();
    if (!el) return;
    const elt = detail.elt;
    const config = detail.requestConfig || {};
    el.querySelector("p").textContent = text(reason, status);
    const old = el.querySelector("button");
    if (old) old.remove();
    el.appendChild(retryButton(el.getAttribute("data-retry"), function () {
      el.hidden = true;
      if (elt.tagName === "FORM") elt.requestSubmit();
      else if (elt.tagName === "A") elt.click();
      else if (window.htmx && config.verb) window.htmx.ajax(config.verb.toUpperCase(), config.path, { source: elt });
    }));
    el.hidden = false;
    const preview = elt.closest && elt.closest(".preview");
    if (preview) preview.classList.add("stale");
  }

  function failed(event, reason) {
    const detail = event.detail;
    const xhr = detail.xhr;
    const status = xhr ? xhr.status : 0;
    const elt = detail.elt;
    if (elt && elt.matches && elt.matches("form.deal-form")) {
      const cancelable = reason !== "http";
      const told = elt.dispatchEvent(new CustomEvent("scorekeeper:save-failed", {
        bubbles: true, cancelable: cancelable, detail: { reason: reason, form: elt, status: status }
      }));
      if (!told && cancelable) return; // someone else (the offline queue) took the deal
      showInForm(elt, reason, status);
      return;
    }
    showBanner(detail, reason, status);
  }

  document.addEventListener("htmx:sendError", function (event) { failed(event, "network"); });
  document.addEventListener("htmx:timeout", function (event) { failed(event, "timeout"); });
  document.addEventListener("htmx:responseError", function (event) { failed(event, "http"); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) return;
    const el = banner();
    if (el && !el.hidden) el.hidden = true;
    const preview = event.detail.elt.closest && event.detail.elt.closest(".preview");
    if (preview) preview.classList.remove("stale");
  });
})();
