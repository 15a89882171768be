/* The deals saved on this phone while the server could not be reached (no DOM here: the page
 * and the service worker both load this file).
 *
 * IndexedDB "scorekeeper", store "deals", one entry per deal, keyed by its one-time key:
 *   {key, action, gameId, number, fields: [[name, value], ...], summary, queuedAt,
 *    status: "waiting" | "attention" | "conflict", takenNumber, loginUrl, userId, userName}
 * A deal belongs to the account that typed it (userId): sendAll(token, userId) sends only
 * that account's deals, and every post names the account (header X-Deal-Account), which the
 * server checks: sent under another account's session (the service worker's Background Sync
 * on a shared phone), it answers 403 with X-Deal-Account-Mismatch and the deal keeps waiting.
 * sendAll() posts the waiting deals one at a time in the order they were entered, as the form
 * would (HX-Request: true), and stops a game's deals at the first that is refused, so that
 * none is stored out of order:
 *   2xx: stored (the one-time key makes a second post of the same deal harmless) -> removed;
 *   409 with X-Deal-Conflict: another phone took the number -> "conflict", the scorer decides;
 *   5xx or no answer: kept as it is, tried again later;
 *   any other answer (422, 403, a tournament round closed: 409 alone, a sign-in page...)
 *   -> "attention".
 * Every change is announced on the BroadcastChannel "sk-deal-queue".
 */
"use strict";

(function (scope) {
  const DB = "scorekeeper";
  const STORE = "deals";
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("sk-deal-queue") : null;

  function request(idbRequest) {
    return new Promise((resolve, reject) => {
      idbRequest.onsuccess = () => resolve(idbRequest.result);
      idbRequest.onerror = () => reject(idbRequest.error);
    });
  }

  let opened = null;
  function open() {
    if (!opened) {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, {keyPath: "key"});
      opened = request(req);
    }
    return opened;
  }

  async function store(mode) {
    const db = await open();
    return db.transaction(STORE, mode).objectStore(STORE);
  }

  function announce() {
    if (channel) channel.postMessage("changed");
    if (typeof scope.dispatchEvent === "function" && typeof CustomEvent === "function") {
      scope.dispatchEvent(new CustomEvent("sk-deal-queue-changed"));
    }
  }

  async function all() {
    const entries = await request((await store("readonly")).getAll());
    return entries.sort((a, b) => a.queuedAt - b.queuedAt);
  }

  async function put(entry) {
    await request((await store("readwrite")).put(entry));
    announce();
  }

  async function remove(key) {
    await request((await store("readwrite")).delete(key));
    announce();
  }

  function isSignInPage(response, entry) {
    return response.redirected && entry.loginUrl && new URL(response.url).pathname === entry.loginUrl;
  }

  async function sendOne(entry, csrfToken) {
    const body = new URLSearchParams();
    for (const [name, value] of entry.fields) {
      body.append(name, name === "csrfmiddlewaretoken" && csrfToken ? csrfToken : value);
    }
    const headers = {"HX-Request": "true"};
    if (csrfToken) headers["X-CSRFToken"] = csrfToken;
    if (entry.userId !== undefined) headers["X-Deal-Account"] = String(entry.userId);
    return fetch(entry.action, {method: "POST", body, headers, credentials: "same-origin"});
  }

  // Returns true when the queue was gone through, false when the network failed on the way.
  async function sendWaiting(csrfToken, userId) {
    const blocked = new Set();
    for (const entry of await all()) {
      if (userId !== undefined && entry.userId !== undefined && entry.userId !== userId) continue;
      if (blocked.has(entry.gameId)) continue;
      if (entry.status !== "waiting") {
        blocked.add(entry.gameId);
        continue;
      }
      let response;
      try {
        response = await sendOne(entry, csrfToken);
      } catch (error) {
        return false;
      }
      if (response.ok && !isSignInPage(response, entry)) {
        await remove(entry.key);
        continue;
      }
      blocked.add(entry.gameId);
      if (response.status >= 500 || response.headers.get("X-Deal-Account-Mismatch")) continue;
      // A token from before a sign-in (a stale page or the worker): wait for a fresh page.
      if (response.headers.get("X-CSRF-Refused")) continue;
      // Refused while sent without knowing whose session this is (the worker): another
      // account's session refuses its token too. The deal waits for its own account.
      if (response.status === 403 && userId === undefined && entry.userId !== undefined) continue;
      if (response.status === 409 && response.headers.get("X-Deal-Conflict")) {
        entry.status = "conflict";
        entry.takenNumber = Number(response.headers.get("X-Deal-Conflict")) || entry.number;
      } else {
        entry.status = "attention";
      }
      await put(entry);
    }
    return true;
  }

  // One sender at a time across the tabs and the worker (Web Locks where the browser has them).
  let running = null;
  function sendAll(csrfToken, userId) {
    if (!running) {
      const run = () => sendWaiting(csrfToken, userId);
      const locked = scope.navigator && scope.navigator.locks
        ? scope.navigator.locks.request("sk-deal-queue", run)
        : run();
      running = locked.finally(() => { running = null; });
    }
    return running;
  }

  scope.SKDealQueue = {all, put, remove, sendAll};
})(self);
