// The settings page's "Turn on push on this device": asks the browser's permission, subscribes
// with the site's VAPID key through the service worker, and hands the subscription to the
// site (POST /api/push/subscriptions/). Where the browser cannot (it has no push, its owner
// blocked the site, its push service would not register it), the page says in words what to
// do next, never the browser's own error, and shows the offer of reminders by e-mail
// ([data-push-fallback]). Everything else on the page is plain forms.
"use strict";
(function () {
  const zone = document.querySelector("#id_time_zone");
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // A person who never chose a zone is offered their browser's.
  if (zone && zone.value === "UTC" && here && zone.querySelector(`option[value="${here}"]`)) zone.value = here;

  const fallback = document.querySelector("[data-push-fallback]");
  // A link that asks for the e-mail option (the game page's, after notifications were refused).
  if (fallback && location.hash === "#email-reminders") fallback.hidden = false;
  const box = document.querySelector("[data-push]");
  if (!box) return;
  const button = box.querySelector("[data-testid=push-on]");
  const status = box.querySelector("[data-push-status]");

  const WORDS = {
    unsupported: "This browser cannot receive push notifications. On an iPhone or iPad, add the site to the "
      + "Home Screen first (Share, then “Add to Home Screen”), open it from there and turn push on in it.",
    denied: "This browser blocks notifications from the site. To allow them, open the site's settings "
      + "(the icon at the left of the address bar), set Notifications to “Allow”, then press the button again.",
    dismissed: "The browser's question was closed without an answer: press the button again and choose “Allow”.",
    failed: "This browser could not sign up with its push service: some browsers switch it off in their "
      + "privacy settings, and some networks block it. Try again later, or from another browser.",
    session: "You are no longer logged in: log in again, then press the button.",
    busy: "Too many tries: wait a minute, then press the button again.",
    offline: "The site could not be reached: check the connection, then press the button again.",
  };
  // Says what to do next; where push cannot reach, offers e-mail instead.
  const say = (what, offerEmail) => {
    status.textContent = WORDS[what];
    status.dataset.reason = what;
    if (fallback && offerEmail) fallback.hidden = false;
  };

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    button.disabled = true;
    say("unsupported", true);
    return;
  }
  if (Notification.permission === "denied") say("denied", true);  // known before any click

  function keyBytes(b64) {
    const padded = (b64 + "=".repeat((4 - b64.length % 4) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }
  function csrf() {
    const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  async function subscription() {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    const registration = await navigator.serviceWorker.ready;
    return await registration.pushManager.getSubscription()
      || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.publicKey) });
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") {
        say(answer === "denied" ? "denied" : "dismissed", answer === "denied");
        return;
      }
      let json;
      try {
        json = (await subscription()).toJSON();
      } catch (err) {
        console.warn("push registration failed:", err);  // for whoever debugs; the page says it in words
        say("failed", true);
        return;
      }
      let response;
      try {
        response = await fetch("/api/push/subscriptions/", {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
          body: JSON.stringify({ endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } }),
        });
      } catch (err) {
        say("offline", false);
        return;
      }
      if (!response.ok) {
        console.warn("the site refused the push subscription:", response.status, await response.text().catch(() => ""));
        if (response.status === 401 || response.status === 403) say("session", false);
        else if (response.status === 429) say("busy", false);
        else say("failed", true);
        return;
      }
      location.reload();  // the device is listed now
    } finally {
      button.disabled = false;
    }
  });
})();
