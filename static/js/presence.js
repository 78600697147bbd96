/* Who of the people I follow is online, live over /ws/presence/ (games/live/presence.py): every
   element with data-presence-count shows how many are online; every data-presence="name"
   dot says whether that person is. The socket itself is what counts this page as online.
   Reconnects with a growing pause if it drops; never polls. */
(function () {
  "use strict";
  var online = {}, pause = 1000;

  function draw() {
    var names = Object.keys(online), count = names.length;
    document.querySelectorAll("[data-presence-count]").forEach(function (node) {
      node.textContent = String(count);
      if (node.classList.contains("presence-badge")) node.hidden = count === 0;
    });
    document.querySelectorAll("[data-presence]").forEach(function (node) {
      var on = !!online[node.getAttribute("data-presence")];
      node.classList.toggle("online", on);
      node.title = on ? "online" : "offline";
      node.setAttribute("data-online", on ? "1" : "0");
    });
  }

  function open() {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    var ws;
    try { ws = new WebSocket(proto + location.host + "/ws/presence/"); } catch (e) { return; }
    ws.onopen = function () { pause = 1000; };
    ws.onmessage = function (event) {
      var msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      if (msg.type === "online") {
        online = {};
        (msg.names || []).forEach(function (n) { online[n] = true; });
      } else if (msg.type === "presence") {
        if (msg.online) online[msg.name] = true; else delete online[msg.name];
      }
      draw();
    };
    ws.onclose = function (event) {
      if (event.code === 4401) return;  // signed out: nothing to count
      setTimeout(open, pause);
      pause = Math.min(pause * 2, 30000);
    };
  }
  open();
})();
