/* Deadlines in words, on every page (templates/base.html loads this before a page's own
   scripts). The server sends ISO times; a clock says how long is left ("14 min left",
   "3 days left", "answer within 2 h 5 min") and shows the moment itself on hover, in the
   viewer's browser language and in the time zone they chose in their settings (the body's
   data-time-zone; the browser's own zone when they chose none). One timer a page keeps every
   clock current: a <time class="clock" data-deadline="..."> drawn by the server (the lists of
   games, a tournament's start and round deadlines) or by a script (Grail.clock on the game
   page). */
(function () {
  "use strict";

  function remaining(iso) {
    var ms = new Date(iso) - new Date();
    if (!(ms > 0)) return null;
    var s = Math.ceil(ms / 1000), m = Math.floor(s / 60), h = Math.floor(m / 60), d = Math.floor(h / 24);
    if (d >= 1) return d + (d === 1 ? " day" : " days") + (h % 24 ? " " + (h % 24) + " h" : "");
    if (h >= 1) return h + " h" + (m % 60 ? " " + (m % 60) + " min" : "");
    if (m >= 1) return m + " min";
    return s + " s";
  }

  function timeLeft(iso) { var r = remaining(iso); return r ? r + " left" : "time is up"; }
  function within(iso) { var r = remaining(iso); return r ? "within " + r : "now: the time is up"; }
  // A moment that starts something rather than ends it (a tournament's start): "in 2 days".
  function from(iso) { var r = remaining(iso); return r ? "in " + r : "now"; }

  function zone() {
    var chosen = document.body && document.body.dataset.timeZone;
    if (!chosen) return undefined;
    try { new Intl.DateTimeFormat(undefined, { timeZone: chosen }); return chosen; }
    catch (e) { return undefined; }  // a zone this browser does not know: its own
  }

  function atTime(iso) {
    var when = new Date(iso);
    if (isNaN(when)) return "";
    return when.toLocaleString(undefined, { weekday: "short", year: "numeric", month: "short", day: "numeric",
                                            hour: "numeric", minute: "2-digit", timeZoneName: "short",
                                            timeZone: zone() });
  }

  function words(node) {
    var how = node.dataset.how, iso = node.dataset.deadline;
    return how === "within" ? within(iso) : how === "in" ? from(iso) : timeLeft(iso);
  }

  // A clock: "… left" (or, with how === "within", "within …"; with "in", "in …"), the moment
  // itself on hover.
  function clock(iso, how, testid) {
    var node = document.createElement("time");
    node.className = "clock";
    node.dataset.deadline = iso;
    node.dataset.how = how || "left";
    node.setAttribute("datetime", iso);
    if (testid) node.dataset.testid = testid;
    node.title = atTime(iso);
    node.textContent = words(node);
    return node;
  }

  // Each second, but a clock's text is written only when its words change ("3 days left" holds
  // for hours): writing the same words still makes the browser lay out and paint the page
  // again, a phone's battery every second for nothing.
  function tick() {
    document.querySelectorAll(".clock[data-deadline]").forEach(function (c) {
      var now = words(c);
      if (c.textContent !== now) c.textContent = now;
      if (!c.title) c.title = atTime(c.dataset.deadline);
    });
  }

  window.GrailClocks = { remaining: remaining, timeLeft: timeLeft, within: within, atTime: atTime,
                         clock: clock, tick: tick };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", tick);
  else tick();
  setInterval(tick, 1000);
})();
