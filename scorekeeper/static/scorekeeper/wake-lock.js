/* Keep the screen on during an open evening (Screen Wake Lock API), if the scorer asks.
 * The choice is remembered on this device (localStorage "sk-wake-lock"); the lock is taken
 * again when the page comes back into view (the browser drops it when the page is hidden).
 *   <label class="wake-lock pending"><input type="checkbox" id="wake-lock"> ...</label>
 * (its place is kept while pending, so that showing it moves nothing).
 */
"use strict";

(function () {
  const STORAGE = "sk-wake-lock";
  let lock = null;

  function remembered() {
    try { return localStorage.getItem(STORAGE) === "on"; } catch (error) { return false; }
  }

  function remember(on) {
    try { localStorage.setItem(STORAGE, on ? "on" : "off"); } catch (error) { /* private mode */ }
  }

  async function take() {
    if (lock || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; });
    } catch (error) {
      lock = null; // refused (battery saver, not allowed): the screen sleeps as usual
    }
  }

  function setup() {
    const box = document.getElementById("wake-lock");
    if (!box || !("wakeLock" in navigator)) return;
    const label = box.closest(".wake-lock");
    label.classList.remove("pending");
    box.checked = remembered();
    if (box.checked) take();
    box.addEventListener("change", () => {
      remember(box.checked);
      if (box.checked) take();
      else if (lock) lock.release();
    });
    document.addEventListener("visibilitychange", () => { if (box.checked) take(); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
