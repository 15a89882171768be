/* Scorekeeper's service worker logic: what to keep and what to answer without network.
 * Its settings come from /sw.js (self.SK): version, staticUrl, precache, offlineUrl,
 * logoutUrl, queueScript.
 *
 *  - Static files (under SK.staticUrl): cache first. Their names carry their hash in
 *    production, and a new version of the worker starts a new cache and drops the old one.
 *  - Pages (GET navigations): network first. A good answer is kept as the page's last copy;
 *    without network (or with none for NETWORK_PATIENCE) the last copy is answered, marked
 *    with the time it was kept (the page's script then shows "offline — as of HH:MM"); a
 *    page never seen gets the offline page.
 *  - Everything else (htmx requests, form posts, live follow): straight to the network.
 *  - Kept pages belong to one account: every page names its account (X-SK-Account, empty
 *    when nobody is signed in), and a page of another account drops all the kept ones
 *    before anything is kept again. Signing out forgets them too: the next person on this
 *    phone never reads the last one's pages, even offline.
 *  - Background Sync "deal-queue": sends the deals waiting in IndexedDB (deal-queue-store.js).
 */
/* global SK, SKDealQueue */
"use strict";

importScripts(SK.queueScript);

const STATIC_CACHE = "sk-static-" + SK.version;
const PAGES_CACHE = "sk-pages"; // not versioned: the last copies outlive an update
const OFFLINE_CACHE = "sk-offline"; // the offline page, in the reader's last language
const SAVED_AT = "X-SK-Saved-At";
const ACCOUNT = "X-SK-Account";
const ACCOUNT_KEY = "/sk-kept-pages-account"; // an entry of PAGES_CACHE: whose pages it keeps
const NETWORK_PATIENCE = 6000; // ms a page may take before its last copy is shown instead

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(STATIC_CACHE);
    await cache.addAll(SK.precache);
    await keepOfflinePage();
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("sk-static-") && name !== STATIC_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && request.method === "POST" && url.pathname === SK.logoutUrl) {
    event.waitUntil(caches.delete(PAGES_CACHE));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith(SK.staticUrl)) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, event));
  }
});

async function cacheFirst(request) {
  const cache = await caches.open(STATIC_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request, event) {
  const network = fetch(request);
  // Keep a good answer as the page's last copy (cloned before the page reads the body).
  event.waitUntil(network.then((response) => {
    const copy = response.clone(); // now: the page reads the body meanwhile
    return oneAtATime(async () => {
      if (copy.headers.has(ACCOUNT)) await keepPagesOf(copy.headers.get(ACCOUNT));
      const type = copy.headers.get("Content-Type") || "";
      if (copy.ok && !copy.redirected && type.startsWith("text/html")) {
        await keepCopy(request, copy);
      }
    });
  }).catch(() => {}));
  // A network that answers nothing for long (the cellar's last bar): the last copy meanwhile.
  const slow = new Promise((resolve) => setTimeout(resolve, NETWORK_PATIENCE))
    .then(async () => (await lastCopy(request)) || network);
  try {
    return await Promise.race([network, slow]);
  } catch (error) {
    return (await lastCopy(request)) || (await offlinePage());
  }
}

// The page as it came, with the time it was kept in a header of our own.
// The kept pages change one answer at a time: a page of the next account never lands
// between another page's check of the account and its copy.
let changes = Promise.resolve();
function oneAtATime(task) {
  changes = changes.then(task, task);
  return changes;
}

async function keepPagesOf(account) {
  const cache = await caches.open(PAGES_CACHE);
  const owner = await cache.match(ACCOUNT_KEY);
  if (owner && (await owner.text()) === account) return;
  await caches.delete(PAGES_CACHE);
  const fresh = await caches.open(PAGES_CACHE);
  await fresh.put(ACCOUNT_KEY, new Response(account, {headers: {"Content-Type": "text/plain"}}));
}

async function keepCopy(request, response) {
  if (new URL(request.url).pathname === ACCOUNT_KEY) return;
  const headers = new Headers(response.headers);
  headers.set(SAVED_AT, String(Date.now()));
  const body = await response.blob();
  const cache = await caches.open(PAGES_CACHE);
  await cache.put(request.url, new Response(body, {status: 200, headers}));
  // The offline page follows the reader's language: fetch it again when the language changed.
  const offline = await (await caches.open(OFFLINE_CACHE)).match(SK.offlineUrl);
  const language = response.headers.get("Content-Language");
  if (language && (!offline || offline.headers.get("Content-Language") !== language)) {
    await keepOfflinePage();
  }
}

// The last copy, marked on <html> so that the page's script can say how old it is.
async function lastCopy(request) {
  if (new URL(request.url).pathname === ACCOUNT_KEY) return null;
  const cache = await caches.open(PAGES_CACHE);
  const kept = await cache.match(request.url);
  if (!kept) return null;
  const html = await kept.text();
  const marked = html.replace("<html", `<html data-offline-copy="${kept.headers.get(SAVED_AT) || ""}"`);
  return new Response(marked, {headers: {"Content-Type": "text/html; charset=utf-8"}});
}

async function keepOfflinePage() {
  const cache = await caches.open(OFFLINE_CACHE);
  try {
    await cache.add(new Request(SK.offlineUrl, {cache: "reload", credentials: "same-origin"}));
  } catch (error) {
    // No network right now: the copy already kept stays.
  }
}

async function offlinePage() {
  const cache = await caches.open(OFFLINE_CACHE);
  return (await cache.match(SK.offlineUrl)) ||
    new Response("Offline", {status: 503, headers: {"Content-Type": "text/plain"}});
}

self.addEventListener("sync", (event) => {
  if (event.tag === "deal-queue") event.waitUntil(SKDealQueue.sendAll());
});
