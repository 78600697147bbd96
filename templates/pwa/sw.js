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

// Push (games/inbox/push.py): the payload is {title, body, url, tag, count}, encrypted for this
// browser; the push service cannot read it.
function showPush(data) {
  return self.registration.showNotification(data.title || "grailsite", {
    body: data.body || "",
    tag: data.tag || "grailsite",   // a newer push about the same game replaces the older one
    renotify: true,
    icon: ICON_PREFIX + "grail-192.png",
    data: { url: data.url || "/" },
  });
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(showPush(data));
});

// A click opens the game at the right place (its board, or its chat): in the window already
// showing that game if there is one, else in a window of the site already open (an installed
// app keeps one window), else in a new one. Focusing is allowed only inside a click: a focus
// refused leaves the window navigated all the same.
function openFromNotification(notification) {
  notification.close();
  const target = new URL((notification.data && notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return Promise.resolve(null);
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => w.url === target.href)
      || windows.find((w) => new URL(w.url).pathname === target.pathname)
      || windows.find((w) => w.focused) || windows[0];
    if (!open) return self.clients.openWindow(target.href);
    const there = open.url === target.href ? Promise.resolve(open) : open.navigate(target.href);
    // A window this worker does not control cannot be navigated: a new one opens instead.
    return there.then((w) => (w || open).focus().catch(() => w || open), () => self.clients.openWindow(target.href));
  });
}

self.addEventListener("notificationclick", (event) => {
  event.waitUntil(openFromNotification(event.notification));
});

// A push service may replace a browser's subscription (keys expired, the service moved it):
// the site is told the new one, proving it held the old one by its endpoint and auth secret,
// which only this browser and the site know. No cookie goes with it: a worker cannot read the
// CSRF token, and the old subscription is proof enough.
function renewSubscription(oldSubscription, newSubscription) {
  if (!oldSubscription) return Promise.resolve(null);  // nothing to name the one replaced
  const fresh = newSubscription ? Promise.resolve(newSubscription)
    : self.registration.pushManager.subscribe(oldSubscription.options);
  return fresh.then((subscription) => {
    const was = oldSubscription.toJSON();
    const now = subscription.toJSON();
    return fetch("/api/push/subscriptions/renew/", {
      method: "POST", credentials: "omit", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        old: { endpoint: was.endpoint, auth: was.keys.auth },
        new: { endpoint: now.endpoint, keys: { p256dh: now.keys.p256dh, auth: now.keys.auth } },
      }),
    });
  });
}

self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil(renewSubscription(event.oldSubscription, event.newSubscription));
});
