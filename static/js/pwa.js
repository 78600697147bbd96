// The installable app: registers the service worker (templates/pwa/sw.js) on every page.
"use strict";
(function () {
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function (err) {
      console.warn("service worker not registered:", err);
    });
  });
})();
