// grailsite's service worker (grailsite/pwa.py says what it may and may not keep).
// Static files only: never a page, an API answer or anything of a game's state.
"use strict";
const VERSION = "{{ version }}";
const CACHE = "grailsite-static-" + VERSION;
const PRECACHE = {{ precache|safe }};
const STATIC_PREFIX = {{ static_prefix|safe }};
const ICON_PREFIX = {{ icon_prefix|safe }};
const OFFLINE = {{ offline|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // The caches of earlier versions go: their files were replaced.
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("grailsite-static-") && k !== CACHE)
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

function isStatic(url) {
  return url.origin === self.location.origin
    && (url.pathname.startsWith(STATIC_PREFIX) || url.pathname.startsWith(ICON_PREFIX) || url.pathname === OFFLINE);
}

function offlinePage(response) {
  return caches.match(OFFLINE).then((page) => page || response || Response.error());
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate") {
    // Pages always come from the server; the offline page stands in when it cannot answer
    // (no network, or a proxy saying the server behind it is gone).
    event.respondWith(fetch(request)
      .then((response) => (response.status >= 502 && response.status <= 504) ? offlinePage(response) : response)
      .catch(() => offlinePage(null)));
    return;
  }
  if (!isStatic(url)) return;  // the API, the game's state, websockets: untouched
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(request).then((hit) => hit
    || fetch(request).then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    }))));
});

// Push (games/push.py): the payload is {title, body, url, tag, count}, encrypted for this
// browser; the push service cannot read it.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(data.title || "grailsite", {
    body: data.body || "",
    tag: data.tag || "grailsite",   // a newer push about the same game replaces the older one
    renotify: true,
    icon: ICON_PREFIX + "grail-192.png",
    data: { url: data.url || "/" },
  }));
});

// A click opens the game at the right place (its board, or its chat), in a window already
// showing it if there is one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => w.url === target.href) || windows.find((w) => new URL(w.url).pathname === target.pathname);
    if (open) return open.focus().then((w) => (w.url === target.href ? w : w.navigate(target.href)));
    return self.clients.openWindow(target.href);
  }));
});
