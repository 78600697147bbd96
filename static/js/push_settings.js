// The settings page's "Turn on push on this device": asks the browser's permission, subscribes
// with the site's VAPID key through the service worker, and hands the subscription to the
// site (POST /api/push/subscriptions/). Everything else on the page is plain forms.
"use strict";
(function () {
  const zone = document.querySelector("#id_time_zone");
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // A person who never chose a zone is offered their browser's.
  if (zone && zone.value === "UTC" && here && zone.querySelector(`option[value="${here}"]`)) zone.value = here;

  const box = document.querySelector("[data-push]");
  if (!box) return;
  const button = box.querySelector("[data-testid=push-on]");
  const status = box.querySelector("[data-push-status]");
  const say = (text) => { status.textContent = text; };
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    button.disabled = true;
    say("This browser cannot receive push notifications.");
    return;
  }

  function keyBytes(b64) {
    const padded = (b64 + "=".repeat((4 - b64.length % 4) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }
  function csrf() {
    const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if (await Notification.requestPermission() !== "granted") {
        say("This browser blocks notifications from the site: allow them in its site settings.");
        return;
      }
      await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription()
        || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.publicKey) });
      const json = subscription.toJSON();
      const response = await fetch("/api/push/subscriptions/", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
        body: JSON.stringify({ endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } }),
      });
      if (!response.ok) {
        const answer = await response.json().catch(() => ({}));
        say((answer.error && answer.error.message) || "Push could not be turned on.");
        return;
      }
      location.reload();  // the device is listed now
    } catch (err) {
      say(`Push could not be turned on: ${err.message}`);
    } finally {
      button.disabled = false;
    }
  });
})();
