/* The installable app, page side: registers the service worker (/sw.js, see sw-logic.js)
 * and marks a page that the worker answered from its last copy: "offline — as of HH:MM",
 * until the server answers the page again (live.js: scorekeeper:server-answered).
 * Texts come from the JSON block #sk-pwa (templates/scorekeeper/includes/pwa_head.html).
 */
"use strict";

(function () {
  const configBlock = document.getElementById("sk-pwa");
  if (!configBlock) return;
  const config = JSON.parse(configBlock.textContent);

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(config.serviceWorker, {scope: "/"}).catch(() => {
      // No worker (a private window, an old browser): the site works as plain pages.
    });
  }

  function markOfflineCopy() {
    const savedAt = Number(document.documentElement.dataset.offlineCopy);
    if (!savedAt) return;
    const time = new Date(savedAt).toLocaleTimeString(document.documentElement.lang || undefined, {
      hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    });
    const banner = document.createElement("p");
    banner.className = "offline-banner";
    banner.setAttribute("role", "status");
    banner.textContent = config.texts.offlineCopy.replace("%(time)s", time);
    document.querySelector("main")?.prepend(banner);
    document.documentElement.classList.add("is-offline-copy");
  }

  // Live again: the page shows the server's state from now on, not its copy's.
  document.addEventListener("scorekeeper:server-answered", () => {
    if (!document.documentElement.classList.contains("is-offline-copy")) return;
    document.querySelectorAll(".offline-banner").forEach((banner) => banner.remove());
    document.documentElement.classList.remove("is-offline-copy");
    delete document.documentElement.dataset.offlineCopy;
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", markOfflineCopy);
  } else {
    markOfflineCopy();
  }
})();
