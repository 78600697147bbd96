// "While you were away" (games/inbox/recap.py): the panel's Dismiss, and telling the site how far
// this page showed the game when the person leaves it (hidden or closed), so the next recap
// starts there. Needs the match page's Grail.page (static/js/match.js).
"use strict";
(function () {
  const panel = document.querySelector("[data-testid=recap]");
  if (panel) {
    panel.querySelector("[data-recap-dismiss]").addEventListener("click", () => { panel.hidden = true; });
  }
  const root = document.getElementById("match");
  if (!root || root.dataset.mySeat === "") return;  // only a player has a recap

  function csrf() {
    const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function lastChat() {
    let last = 0;
    document.querySelectorAll('#chat li[data-channel="players"]').forEach((li) => {
      last = Math.max(last, Number(li.dataset.id) || 0);
    });
    return last;
  }
  // What the page showed while it was in view: sent a few seconds after it changes, and when
  // the page is hidden or left (a keepalive request, which may outlive it; the periodic one
  // does not depend on it arriving).
  let sent = null;
  function seen(keepalive) {
    const data = window.Grail && Grail.page && Grail.page.data;
    if (!data || typeof data.moves !== "number") return;
    const body = JSON.stringify({ moves: data.moves, chat: lastChat() });
    if (body === sent) return;
    sent = body;
    fetch("/api/matches/" + root.dataset.match + "/seen/", {
      method: "POST", keepalive, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() }, body,
    }).catch(() => { sent = null; });
  }
  setInterval(() => { if (document.visibilityState === "visible") seen(false); }, 3000);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") seen(true); });
  window.addEventListener("pagehide", () => seen(true));
})();
