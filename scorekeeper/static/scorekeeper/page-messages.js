/* Messages that say what was just done ("The club X is ready.", "Deal 20 is back.", the undo
 * of a deletion) go when they stop being the latest news: once something else is done on the
 * page (an htmx post answered 2xx, not a preview) or the evening changes (a live answer with a
 * newer version: scorekeeper:page-changed, live.js). "Deal N saved" has its own rule (live.js).
 */
(function () {
  "use strict";
  function forget() {
    document.querySelectorAll(".flash-messages, #undo").forEach((node) => node.remove());
  }

  document.addEventListener("htmx:afterRequest", (event) => {
    const detail = event.detail;
    const xhr = detail.xhr;
    const verb = detail.requestConfig && detail.requestConfig.verb;
    if (!xhr || xhr.status < 200 || xhr.status > 299 || !verb || verb.toLowerCase() === "get") return;
    if (detail.boosted) return; // a whole page came: its messages are the news
    const elt = detail.elt;
    if (elt && elt.closest && elt.closest(".preview")) return; // a preview changes nothing
    forget();
  });
  document.addEventListener("scorekeeper:page-changed", forget);
})();
