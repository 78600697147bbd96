/* A tournament's page, live: its websocket (/ws/tournaments/<id>/) says the tournament's new
   version after each change (an entry, a result, a round); the page then reloads what
   changes (the standings and the rounds, ?part=live) once, however many versions it missed.
   A page that reconnects asks again, since a change may have come while it was away. */
(function () {
  var root = document.getElementById("tournament-live");
  if (!root) return;
  var id = root.dataset.tournament;
  var shown = parseInt(root.dataset.version, 10) || 0;
  var wanted = shown, loading = false, delay = 1000;
  var conn = document.getElementById("conn");

  function reload() {
    if (loading || wanted <= shown) return;
    loading = true;
    var target = wanted;
    fetch(location.pathname + "?part=live", { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.text();
    }).then(function (html) {
      root.innerHTML = html;
      shown = Math.max(shown, target);
      root.dataset.version = String(shown);
    }).catch(function () { /* the next message or reconnect tries again */ }).then(function () {
      loading = false;
      if (wanted > shown) reload();
    });
  }

  function connect() {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(proto + location.host + "/ws/tournaments/" + id + "/");
    ws.onopen = function () { delay = 1000; if (conn) conn.classList.add("up"); };
    ws.onmessage = function (e) {
      var msg = JSON.parse(e.data);
      if (typeof msg.version === "number" && msg.version > wanted) { wanted = msg.version; reload(); }
    };
    ws.onclose = function () {
      if (conn) conn.classList.remove("up");
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
