/* The game page client: fetches the viewer's JSON, listens on the match websocket, shows
   seats, clocks, log and chat, and hands the game area to the kind's renderer.
   DOM is built with textContent only: usernames, chat and card texts are user input. */
(function () {
  "use strict";
  // A game that will never change again (games.models.Match.ENDED).
  var ENDED = ["finished", "abandoned", "aborted"];
  var renderers = {};
  var Grail = { renderers: renderers };

  Grail.registerRenderer = function (kind, renderer) { renderers[kind] = renderer; };

  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "class") node.className = attrs[k];
      else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c == null) continue;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return node;
  }
  Grail.el = el;

  /* The rules speak of "Seat 2"; the page names the person in it (as the server does). */
  function withNames(text, seats) {
    return String(text || "").replace(/\bseat (\d+)\b/gi, function (all, n) {
      var s = seats && seats[parseInt(n, 10) - 1];
      return s && s.username ? s.username : all;
    });
  }
  Grail.withNames = withNames;

  /* A person's name as a link to their profile; a computer player's (or no one's) as text. */
  function playerLink(name, seat) {
    if (!name || (seat && seat.computer)) return document.createTextNode(name || "");
    return el("a", { class: "player", href: "/players/" + encodeURIComponent(name) + "/", text: name });
  }
  Grail.playerLink = playerLink;

  /* Text with the printed rules' numbers it cites ("(15.3)") as links to that paragraph of
     the game's rules page (its paragraphs have ids "rule-15-3"; games/templatetags/players.py
     does the same for pages drawn on the server). The page says where its rules are. */
  var RULE_NUMBER = /\((rule )?(\d{1,2})\.(\d{1,2})\)/g;

  function ruleLinks(text) {
    var frag = document.createDocumentFragment(), rest = String(text || ""), at = 0, found;
    var page = document.getElementById("match") || document.getElementById("replay");
    var rules = page && page.dataset.rules;
    if (!rules) { frag.appendChild(document.createTextNode(rest)); return frag; }
    RULE_NUMBER.lastIndex = 0;
    while ((found = RULE_NUMBER.exec(rest)) !== null) {
      var number = found[2] + "." + found[3];
      frag.appendChild(document.createTextNode(rest.slice(at, found.index) + "(" + (found[1] || "")));
      frag.appendChild(el("a", { class: "rule-ref", href: rules + "#rule-" + found[2] + "-" + found[3], target: "_blank",
                                 rel: "noopener", title: "Rule " + number + " on the rules page", text: number }));
      frag.appendChild(document.createTextNode(")"));
      at = found.index + found[0].length;
    }
    frag.appendChild(document.createTextNode(rest.slice(at)));
    return frag;
  }
  Grail.ruleLinks = ruleLinks;

  /* A log line with the people's names in it as links, and the rule numbers it cites (the text
     stays text: textContent only). */
  function linkedText(text, seats) {
    var names = (seats || []).filter(function (s) { return s.username && !s.computer; })
      .map(function (s) { return s.username.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&"); })
      .sort(function (a, b) { return b.length - a.length; });
    var frag = document.createDocumentFragment(), rest = String(text || ""), at = 0, found;
    if (!names.length) { frag.appendChild(ruleLinks(rest)); return frag; }
    // Whole names only, as the history page (games/templatetags/players.py).
    var pattern = new RegExp("(?<![\\w@.+-])(?:" + names.join("|") + ")(?![\\w@+-])", "g");
    while ((found = pattern.exec(rest)) !== null) {
      if (found.index > at) frag.appendChild(ruleLinks(rest.slice(at, found.index)));
      frag.appendChild(playerLink(found[0]));
      at = found.index + found[0].length;
    }
    if (at < rest.length) frag.appendChild(ruleLinks(rest.slice(at)));
    return frag;
  }
  Grail.linkedText = linkedText;

  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function api(method, url, body) {
    var opts = { method: method, headers: { "Accept": "application/json" }, credentials: "same-origin" };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.headers["X-CSRFToken"] = csrfToken();
      opts.body = JSON.stringify(body);
    }
    return fetch(url, opts).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) {
          var err = new Error((data.error && data.error.message) || ("The server answered " + r.status + "."));
          err.code = data.error && data.error.code; err.status = r.status;
          throw err;
        }
        return data;
      });
    });
  }
  Grail.api = api;

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  /* Deadlines in words, the moment on hover in the viewer's chosen zone: static/js/clocks.js,
     which every page loads and whose one timer keeps every clock current. */
  var clock = window.GrailClocks.clock;
  Grail.timeLeft = window.GrailClocks.timeLeft; Grail.atTime = window.GrailClocks.atTime; Grail.clock = clock;

  /* A renderer for kinds without one of their own: the view as text, legal moves as buttons. */
  var fallback = {
    render: function (root, data, ctx) {
      root.textContent = "";
      root.appendChild(el("pre", { class: "raw-view", text: JSON.stringify(data.view, null, 2) }));
      var moves = el("div", { class: "moves" });
      (data.legal_moves || []).forEach(function (mv) {
        moves.appendChild(el("button", { onclick: function () { ctx.submit(mv).catch(function () {}); } },
          JSON.stringify(mv)));
      });
      root.appendChild(moves);
    }
  };

  function Page(root) {
    this.root = root;
    this.id = root.dataset.match;
    this.kind = root.dataset.kind;
    this.data = null;
    this.retry = 0;
    this.board = document.getElementById("board");
  }

  Page.prototype.renderer = function () { return renderers[this.kind] || fallback; };

  Page.prototype.ctx = function () {
    var page = this;
    return {
      submit: function (move) { return page.submit(move); },
      seatName: function (seat) {
        var s = page.data && page.data.seats[seat];
        return s && s.username ? s.username : "Seat " + (seat + 1);
      },
      withNames: function (text) { return withNames(text, page.data && page.data.seats); },
      el: el,
      showError: function (msg) { page.showError(msg); }
    };
  };

  Page.prototype.load = function () {
    var page = this;
    return api("GET", "/api/matches/" + this.id + "/").then(function (d) { page.update(d); });
  };

  Page.prototype.update = function (data) {
    // An older push arrived late, or the same version came twice (the move's reply and the
    // push): draw each version once, so a click in between is never lost to a redraw.
    if (this.data && (data.version < this.data.version ||
        (data.version === this.data.version && data.status === this.data.status))) return;
    var wasMyTurn = this.isMyTurn();
    var statusChanged = this.data && this.data.status !== data.status;
    this.data = data;
    if (statusChanged && (data.status === "active" || this.root.dataset.status === "open")) {
      location.reload();  // the waiting room became a game: the page around it changes
      return;
    }
    if (statusChanged && ENDED.indexOf(data.status) >= 0) refreshFairness(this.id);
    this.drawSeats();
    this.drawDecisions();
    this.drawOutcome();
    this.syncControls();
    this.drawLog();
    if (data.view !== null && data.view !== undefined) {
      try { this.renderer().render(this.board, data, this.ctx()); }
      catch (e) { this.showError("Could not draw the game: " + e.message); throw e; }
    }
    var mine = this.isMyTurn();
    document.title = (mine ? "(Your move) " : "") + document.title.replace(/^\(Your move\) /, "");
    if (mine && !wasMyTurn && document.hidden && window.Notification && Notification.permission === "granted") {
      new Notification("Your move", { body: data.name + " #" + data.id });
    }
  };

  /* "Give more time": another player's clock gets the game's own allowance for a move, at most
     a day (services.deadline_extend), as lichess lets a player add seconds to the other's clock. */
  function addTimeButton(d, s) {
    var button = el("button", { type: "button", class: "add-time", "data-testid": "add-time-" + s.seat,
      title: "Give this player more time to move: the game's own time for a move, at most a day." }, "+ time");
    button.addEventListener("click", function () {
      button.disabled = true;
      api("POST", "/api/matches/" + d.id + "/add-time/", { seat: s.seat }).catch(function (err) {
        button.disabled = false; Grail.page.showError(err.message);
      });
    });
    return button;
  }

  Page.prototype.isMyTurn = function () {
    var d = this.data;
    return !!(d && d.my_seat !== null && d.seats[d.my_seat] && d.seats[d.my_seat].to_act);
  };

  Page.prototype.drawSeats = function () {
    var box = document.getElementById("seats"), d = this.data;
    box.textContent = "";
    d.seats.forEach(function (s) {
      var cls = "seat seat-" + s.seat + (s.to_act ? " to-act" : "") + (s.seat === d.my_seat ? " me" : "");
      var item = el("div", { class: cls, "data-seat": s.seat },
        el("span", { class: "dot" }),
        el("span", { class: "seat-no", text: String(s.seat + 1) }),
        el("span", { class: "name" }, s.username ? playerLink(s.username, s) : "open seat"),
        s.bot ? el("abbr", { class: "bot-badge", title: "A program plays this account", text: "BOT" }) : null,
        s.seat === d.my_seat ? el("span", { class: "you", text: "you" }) : null);
      if (s.to_act) item.appendChild(el("span", { class: "waiting", text: s.waiting || "to act" }));
      if (s.deadline) item.appendChild(clock(s.deadline));
      if (s.deadline && d.status === "active" && d.my_seat !== null && d.my_seat !== undefined && s.seat !== d.my_seat) {
        item.appendChild(addTimeButton(d, s));
      }
      if (s.paused_until && new Date(s.paused_until) > new Date()) item.appendChild(el("span", { class: "paused", text: "on vacation" }));
      box.appendChild(item);
    });
  };

  /* The shared decision stack (games/rules/decisions.py), drawn the same way for every game
     in a bar that stays in view: my open choices as buttons (or boxes to tick for a choice of
     several), and what the others are deciding, in their public words. */
  Page.prototype.drawDecisions = function () {
    var box = document.getElementById("decisions"), d = this.data, page = this;
    if (!box) return;
    var list = (d.view && Array.isArray(d.view.decisions) && d.status === "active") ? d.view.decisions : [];
    if (this.renderer().drawsDecisions) list = [];
    box.textContent = "";
    box.hidden = !list.length;
    list.forEach(function (dec) {
      if (!dec.mine || dec.done) {
        box.appendChild(el("p", { class: "decision others" + (dec.done ? " done" : ""), "data-decision": dec.id,
                                  text: page.named(dec.public) + (dec.done ? " (done)" : "") }));
        return;
      }
      box.appendChild(page.decisionControl(dec));
    });
  };

  // The rules speak of "Seat 2" in prompts and labels too.
  Page.prototype.named = function (text) { return withNames(text, this.data && this.data.seats); };

  /* My own prompts speak of my pieces as mine: "Seat 3's Galahad 2" is "your Galahad 2" to
     the player in seat 3 (the rules' words are kept in the state as the rules wrote them). */
  Page.prototype.mine = function (text) {
    var me = this.data && this.data.my_seat;
    if (me === null || me === undefined) return this.named(text);
    var own = String(text || "").replace(/(^|[^\w])seat (\d+)'s\b/gi, function (all, before, n) {
      if (parseInt(n, 10) !== me + 1) return all;
      return before + (before === "" || /[.!?:]\s*$/.test(before) ? "Your" : "your");
    });
    return this.named(own);
  };

  // An option of my decision in words: the kind's renderer may name it better (Camelot names
  // a unit as its board does, "your Galahad 2"), else the rules' label.
  Page.prototype.optionLabel = function (dec, option) {
    var say = this.renderer().optionLabel;
    var label = say ? say(dec, option, this.data, this.ctx()) : null;
    return label || this.mine(option.label);
  };

  Page.prototype.decisionControl = function (dec) {
    var page = this, single = dec.pick[0] === 1 && dec.pick[1] === 1;
    var form = el("form", { class: "decision mine", "data-decision": dec.id, "data-testid": "decision" },
      el("p", { class: "prompt", text: page.mine(dec.prompt) }));
    function send(choice) {
      return page.submit({ type: "decide", id: dec.id, choice: choice }).catch(function () {});
    }
    if (single) {
      dec.options.forEach(function (o) {
        form.appendChild(el("button", { type: "button", class: "option", onclick: function () { send(o.value); } },
          page.optionLabel(dec, o)));
      });
      return form;
    }
    var picks = el("div", { class: "options" }), count = el("span", { class: "count" });
    var button = el("button", { type: "submit", class: "primary" }, "Done");
    // Boxes ticked so far survive a redraw (another seat's move arrives while this one chooses).
    var ticked = this.ticked || (this.ticked = {});
    function boxes() { return Array.prototype.slice.call(picks.querySelectorAll("input")); }
    function chosen() {
      return boxes().filter(function (i) { return i.checked; }).map(function (i) { return dec.options[+i.dataset.index].value; });
    }
    function recount() {
      ticked[dec.id] = boxes().filter(function (i) { return i.checked; }).map(function (i) { return +i.dataset.index; });
      var n = chosen().length;
      count.textContent = n + " chosen (" + (dec.pick[0] === dec.pick[1] ? dec.pick[0] : dec.pick[0] + "–" + dec.pick[1]) + ")";
      button.disabled = n < dec.pick[0] || n > dec.pick[1];
    }
    dec.options.forEach(function (o, i) {
      var input = el("input", { type: "checkbox", "data-index": String(i), onchange: recount });
      input.checked = (ticked[dec.id] || []).indexOf(i) >= 0;
      picks.appendChild(el("label", { class: "check" }, input, " " + page.optionLabel(dec, o)));
    });
    form.appendChild(picks);
    var actions = el("div", { class: "decision-actions" }, count, button);
    if (dec.pick[1] >= 3) {  // "discard 17 of 19": tick them all, then untick the ones to keep
      actions.appendChild(el("button", { type: "button", class: "link", "data-testid": "tick-all", onclick: function () {
        var all = boxes().every(function (i) { return i.checked; });
        boxes().forEach(function (i) { i.checked = !all; });
        recount();
      } }, "Tick all / none"));
    }
    form.appendChild(actions);
    form.addEventListener("submit", function (ev) { ev.preventDefault(); send(chosen()); });
    recount();
    return form;
  };

  /* Page controls outside the board that depend on the state (resign, call off). A player
     who is out of a game that goes on (resigned) has nothing left to resign. */
  Page.prototype.syncControls = function () {
    var d = this.data, moved = d.moves > 0, out = !!(d.ending && d.ending.over_for_you);
    document.querySelectorAll("[data-show-while]").forEach(function (node) {
      var rule = node.dataset.showWhile;
      node.hidden = !(d.status === "active" && !out && (rule === "active" || (rule === "no-moves" && !moved)));
    });
  };

  /* The one place the end of a game is said, from the server's words, the same on a page
     open when it ended and on one opened later: "You won / You lost / Draw" (or who won, to
     a spectator; "You resigned" to a player the others play on without), why in names, what
     else happened (what changed hands: the CCG's ante), and where to go next: the history,
     the replay and a rematch. */
  Page.prototype.drawOutcome = function () {
    var box = document.getElementById("outcome"), d = this.data, end = d.ending;
    this.drawSituation();
    if (!box) return;
    box.hidden = !end;
    box.textContent = "";
    if (!end) return;
    box.className = "outcome result-" + end.result;
    box.appendChild(el("strong", { class: "headline", "data-testid": "headline", text: end.headline + "." }));
    if (end.reason) box.appendChild(el("span", { class: "why", "data-testid": "ending-reason" }, ruleLinks(" " + end.reason)));
    (end.details || []).forEach(function (line) {
      box.appendChild(el("p", { class: "ending-detail", "data-testid": "ending-detail" }, ruleLinks(line)));
    });
    if (end.ratings && end.ratings.length) box.appendChild(ratingChanges(end.ratings));
    if (end.rating_note) box.appendChild(el("p", { class: "rating-note", "data-testid": "rating-note", text: end.rating_note }));
    if (end.result !== "abandoned" && end.result !== "aborted") box.appendChild(this.endingActions());
  };

  /* Each player's rating after a rated game, lichess-style: "alice 1012 +12", with "?" (its
     meaning in a tooltip) while a rating is provisional. */
  var PROVISIONAL = "Provisional: fewer than 10 rated games of this game, so the rating still moves a lot.";
  function ratingChanges(lines) {
    var row = el("p", { class: "rating-changes", "data-testid": "rating-changes" }, "Ratings: ");
    lines.forEach(function (line, i) {
      var item = el("span", { class: "rating-change " + (line.change > 0 ? "up" : line.change < 0 ? "down" : "same"),
        "data-testid": "rating-change-" + line.seat }, line.name + " " + line.after);
      if (line.provisional) item.appendChild(el("abbr", { title: PROVISIONAL, "data-testid": "provisional" }, "?"));
      item.appendChild(el("b", { text: " " + line.shown }));
      if (i) row.appendChild(document.createTextNode(" · "));
      row.appendChild(item);
    });
    return row;
  }

  Page.prototype.endingActions = function () {
    var d = this.data, page = this;
    var row = el("p", { class: "ending-actions", "data-testid": "ending-actions" },
      el("a", { href: "/games/" + d.id + "/history/", "data-testid": "history-link" }, "Whole history"), " ",
      el("a", { href: "/games/" + d.id + "/replay/", "data-testid": "replay-link" }, "Replay"));
    if (d.status !== "finished") return row;
    if (d.rematch) {
      row.appendChild(document.createTextNode(" "));
      row.appendChild(el("a", { href: "/games/" + d.rematch.id + "/", class: "button primary", "data-testid": "rematch-link" },
        "Go to the rematch (#" + d.rematch.id + ")"));
    } else if (d.my_seat !== null && d.my_seat !== undefined) {
      var button = el("button", { type: "button", class: "primary", "data-testid": "rematch",
        title: "A new game with the same players and table options; the others are invited." }, "Rematch");
      button.addEventListener("click", function () {
        button.disabled = true;
        // The asker's share in the rematch's seed, from this browser (static/js/contribution.js).
        var body = window.GrailContribution ? { contribution: window.GrailContribution() } : {};
        api("POST", "/api/matches/" + d.id + "/rematch/", body).then(function (next) {
          location.href = "/games/" + next.id + "/";
        }, function (err) { button.disabled = false; page.showError(err.message); });
      });
      row.appendChild(document.createTextNode(" "));
      row.appendChild(button);
    }
    return row;
  };

  /* Why a game goes on after a player left it, and what is still at stake (the CCG's search
     alone, 15.3), for those still playing and those watching. */
  Page.prototype.drawSituation = function () {
    var box = document.getElementById("situation"), lines = this.data.situation || [];
    if (!box) return;
    box.textContent = "";
    box.hidden = !lines.length;
    lines.forEach(function (line) { box.appendChild(el("p", {}, ruleLinks(line))); });
  };

  Page.prototype.drawLog = function () {
    var list = document.getElementById("log");
    if (!list) return;
    list.textContent = "";
    var seats = this.data.seats;
    (this.data.log || []).forEach(function (line) {
      // Numbered by move, as on the history page (the log shows only the latest moves).
      // A move the clock made says so in words after it, as on the history page.
      list.appendChild(el("li", { class: line.timeout ? "timeout" : "", value: line.seq }, linkedText(line.text, seats),
        line.timeout ? el("span", { class: "by-clock", title: "Made by the site when the player's time ran out",
                                    text: " (by the clock)" }) : null));
    });
    list.scrollTop = list.scrollHeight;
  };

  Page.prototype.showError = function (msg) {
    var box = document.getElementById("move-error");
    if (!box) { alert(msg); return; }
    box.textContent = msg;
    box.hidden = !msg;
  };

  /* A move goes over the game's socket when it is up (answered there with "ack" or
     "refused"), else over HTTP; either way the new view arrives as a frame. */
  var ANSWER_WAIT_MS = 10000, FRAME_WAIT_MS = 1500;

  Page.prototype.submit = function (move) {
    var page = this;
    page.showError("");
    var body = { move: move, version: this.data.version, key: newKey() };
    var sent = (this.ws && this.ws.readyState === WebSocket.OPEN) ? this.submitLive(body) :
      api("POST", "/api/matches/" + this.id + "/moves/", body);
    return sent.then(function (res) {
      // The frame comes with the answer or a moment after it; if it went missing, fetch the game.
      setTimeout(function () {
        if (page.data && res.version > page.data.version) page.load().catch(function () {});
      }, page.ws && page.ws.readyState === WebSocket.OPEN ? FRAME_WAIT_MS : 0);
      return res;
    }).catch(function (err) {
      page.showError(err.message);
      page.load().catch(function () {});
      throw err;
    });
  };

  Page.prototype.submitLive = function (body) {
    var page = this, ws = this.ws;
    this.answers = this.answers || {};
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () {
        delete page.answers[body.key];
        reject(new Error("No answer from the server: the game has been refreshed, please check your move."));
      }, ANSWER_WAIT_MS);
      page.answers[body.key] = function (msg) {
        clearTimeout(timer);
        delete page.answers[body.key];
        if (msg.type === "ack") { resolve(msg); return; }
        var err = new Error(msg.error.message);
        err.code = msg.error.code; err.status = msg.status;
        reject(err);
      };
      ws.send(JSON.stringify({ type: "move", move: body.move, version: body.version, key: body.key }));
    });
  };

  /* A change frame follows one version: applied to the page if it follows what the page
     shows, otherwise the page asks the socket for the whole state. */
  Page.prototype.applyChange = function (change, ws) {
    if (!this.data || change.prev !== this.data.version) {
      if (change.version > (this.data ? this.data.version : -1) && ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify({ type: "sync", version: this.data ? this.data.version : null }));
      }
      return;
    }
    var kept = this.data.view || {};
    // Parts of the view the page keeps (games/live/frames.py): the change brings only names new
    // since prev, merged into what the page holds.
    (change.kept || []).forEach(function (k) {
      if (change.view) change.view[k] = Object.assign({}, kept[k] || {}, change.view[k] || {});
    });
    var next = Object.assign({}, this.data);
    ["version", "view", "legal_moves", "outcome", "status", "moves", "my_seat", "seats", "ending", "situation",
     "rematch"].forEach(
      function (k) { next[k] = change[k]; });
    // Lines said before the first record (who goes first) come again, stored, with it.
    var earlier = (change.events || []).length
      ? (this.data.log || []).filter(function (l) { return !l.provisional; }) : (this.data.log || []);
    next.log = earlier.concat(change.events || []).slice(-LOG_KEPT);
    this.update(next);
  };
  var LOG_KEPT = 300;

  /* Live updates. The socket can die quietly (its server lost Redis, a proxy dropped it):
     every HEARTBEAT_MS the page sends a ping with its version; the server answers with the
     state if the page is behind, then a pong. No answer within PONG_WAIT_MS and the socket
     is closed and reopened. While no socket is up the page polls the API instead, so it
     never sits on a stale game. The dot says which: Live, Catching up, or Reconnecting. */
  var HEARTBEAT_MS = 25000, PONG_WAIT_MS = 10000, POLL_MS = 30000;
  // Close codes after which retrying cannot help (see games/live/consumers.py).
  var FINAL_CODES = { 4400: true, 4401: true, 4403: true, 4404: true };

  Page.prototype.showConn = function (state) {
    var conn = document.getElementById("conn");
    if (!conn) return;
    var titles = { up: "Live", catching: "Catching up…", down: "Reconnecting…", off: "Live updates are off" };
    conn.className = "conn " + (state === "catching" ? "down" : state);
    conn.style.color = state === "catching" ? "#d68910" : "";
    conn.title = titles[state];
    conn.dataset.state = state;
  };

  Page.prototype.connect = function () {
    var page = this;
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(proto + location.host + "/ws/matches/" + this.id + "/");
    ws.onopen = function () {
      page.retry = 0;
      page.stopPolling();
      page.showConn("up");
      if (page.data) ws.send(JSON.stringify({ type: "sync", version: page.data.version }));
      page.fetchChat(page.newestChatId());  // lines said while no socket was up
      page.sendChat();  // lines waiting to be sent go now, not at their next try
      page.heartbeat = setInterval(function () { page.ping(ws); }, HEARTBEAT_MS);
    };
    ws.onmessage = function (ev) {
      var msg = JSON.parse(ev.data);
      var answering = !!page.pongTimer;  // a ping waits for its answer
      page.alive();
      if (msg.type === "change") page.applyChange(msg.data, ws);
      else if (msg.type === "ack" || msg.type === "refused") {
        if (page.answers && page.answers[msg.key]) page.answers[msg.key](msg);
      } else if (msg.type === "state") {
        // A newer state that answers a ping, or that skips versions, brings what a push missed.
        var missed = page.data && msg.data.version > page.data.version &&
          (answering || msg.data.version > page.data.version + 1);
        if (missed) page.showConn("catching");
        page.update(msg.data);
        if (missed) setTimeout(function () { if (page.ws === ws) page.showConn("up"); }, 600);
      } else if (msg.type === "chat") page.receiveChat(msg.message);
      else if (msg.type === "pong" && page.data && msg.version > page.data.version) {
        page.showConn("catching");  // the frame was missed: fetch it
        page.load().then(function () { page.showConn("up"); }, function () {});
      }
    };
    ws.onclose = function (ev) {
      clearInterval(page.heartbeat);
      Object.keys(page.answers || {}).forEach(function (key) {
        page.answers[key]({ type: "refused", status: 0, error: { code: "disconnected",
          message: "The connection dropped before the server answered: check the game before you move again." } });
      });
      page.alive();
      if (page.ws !== ws) return;
      if (FINAL_CODES[ev.code]) { page.showConn("off"); return; }
      page.showConn("down");
      page.startPolling();
      // Back off up to 30 s (1013: the server's live updates are down for a moment).
      var delay = Math.min(30000, 500 * Math.pow(2, page.retry++)) * (0.5 + Math.random() / 2);
      setTimeout(function () { page.connect(); }, delay);
    };
    this.ws = ws;
  };

  Page.prototype.ping = function (ws) {
    if (ws.readyState !== WebSocket.OPEN || !this.data) return;
    ws.send(JSON.stringify({ type: "ping", version: this.data.version }));
    if (!this.pongTimer) {
      this.pongTimer = setTimeout(function () { ws.close(); }, PONG_WAIT_MS);  // onclose reconnects
    }
  };

  Page.prototype.alive = function () {
    clearTimeout(this.pongTimer);
    this.pongTimer = null;
  };

  Page.prototype.startPolling = function () {
    var page = this;
    if (this.poller) return;
    this.poller = setInterval(function () { page.load().catch(function () {}); }, POLL_MS);
  };

  Page.prototype.stopPolling = function () {
    clearInterval(this.poller);
    this.poller = null;
  };

  /* Chat. Every line carries its id and its number (seq) in its channel (the players' or the
     spectators'); lines are shown in id order, the order they were said. A page that holds
     seq n and n+2 of a channel missed n+1 (a push lost, or said while the socket was down):
     it fetches the lines after the last one it holds without a gap. */
  Page.prototype.addChat = function (m) {
    var list = document.getElementById("chat");
    if (!list) return false;
    if (list.querySelector('[data-id="' + m.id + '"]')) return false;
    var attrs = { "data-id": m.id, "data-seq": m.seq, "data-channel": m.spectators ? "spectators" : "players",
                  class: m.spectators ? "from-spectator" : "" };
    // A line by someone this reader blocked holds its place, so no gap shows, and says nothing.
    var li = m.muted ? el("li", Object.assign(attrs, { hidden: "" }))
      : el("li", attrs, el("b", null, playerLink(m.user)), " " + m.text);
    var next = null, items = list.children;
    for (var i = items.length - 1; i >= 0 && +items[i].dataset.id > m.id; i--) next = items[i];
    list.insertBefore(li, next);
    list.scrollTop = list.scrollHeight;
    return true;
  };

  // The id of the last line held before the first gap of any channel, or null: no gap.
  Page.prototype.chatGap = function () {
    var list = document.getElementById("chat"), last = {}, gapAfter = null;
    if (!list) return null;
    Array.prototype.forEach.call(list.children, function (li) {
      var ch = li.dataset.channel, seq = +li.dataset.seq, id = +li.dataset.id;
      if (!ch || !seq) return;
      if (last[ch] && seq > last[ch].seq + 1 && (gapAfter === null || last[ch].id < gapAfter)) gapAfter = last[ch].id;
      last[ch] = { seq: seq, id: id };
    });
    return gapAfter;
  };

  Page.prototype.newestChatId = function () {
    var list = document.getElementById("chat"), newest = 0;
    if (list) Array.prototype.forEach.call(list.children, function (li) { newest = Math.max(newest, +li.dataset.id || 0); });
    return newest;
  };

  // Fetch the lines after ``afterId`` (oldest first, a page at a time) until no gap is left.
  Page.prototype.fetchChat = function (afterId) {
    var page = this;
    if (this.chatFetching) { this.chatAgain = true; return this.chatFetching; }
    this.chatFetching = api("GET", "/api/matches/" + this.id + "/chat/?after=" + afterId).then(function (r) {
      var added = 0;
      (r.messages || []).forEach(function (m) { if (page.addChat(m)) added++; });
      page.chatFetching = null;
      var gap = page.chatGap();
      if (page.chatAgain || (gap !== null && added)) { page.chatAgain = false; return page.fetchChat(gap !== null ? gap : afterId); }
    }, function () { page.chatFetching = null; page.chatAgain = false; });
    return this.chatFetching;
  };

  Page.prototype.receiveChat = function (m) {
    this.addChat(m);
    var gap = this.chatGap();
    if (gap !== null) this.fetchChat(gap);
  };

  /* Sending. A line typed is queued at once, so the box is free for the next one at any
     speed, and shown under the chat as "sending…"; the queue sends one line at a time, in the
     order typed, each with a key of its own, so a line sent again after its answer was lost is
     stored once (services.chat_post). A line joins the chat only when the server has it (its
     answer, or its push). A refusal is said on the line itself, never dropped: one that may
     pass later (no connection, too many lines a minute, the server busy) is sent again by
     itself after a wait; one that cannot (chat closed to you) waits for "Try again". */
  var CHAT_RETRY_MS = [1000, 2000, 5000, 10000, 30000];

  function mayPassLater(err) {
    return !err.status || err.status === 408 || err.status === 429 || err.status >= 500;
  }

  Page.prototype.wireChat = function () {
    var form = document.getElementById("chat-form"), page = this;
    if (!form) return;
    var list = document.getElementById("chat");
    this.chatOut = [];  // lines still to send, oldest first: {key, text, tries, li, note}
    this.chatPending = el("ul", { class: "chat chat-pending", "data-testid": "chat-pending", "aria-live": "polite" });
    list.parentNode.insertBefore(this.chatPending, list.nextSibling);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var text = form.text.value.trim();
      if (!text) return;
      form.text.value = "";
      page.queueChat({ key: newKey(), text: text, tries: 0 });
    });
  };

  Page.prototype.queueChat = function (line) {
    line.note = el("span", { class: "chat-note", text: " sending\u2026" });
    line.li = el("li", { class: "pending", "data-key": line.key }, el("b", { text: "you" }), " " + line.text, line.note);
    this.chatPending.appendChild(line.li);
    this.chatOut.push(line);
    this.sendChat();
  };

  Page.prototype.sendChat = function () {
    var page = this, line = this.chatOut && this.chatOut[0];
    if (!line || this.chatSending) return;
    this.chatSending = true;
    clearTimeout(this.chatRetry);
    api("POST", "/api/matches/" + this.id + "/chat/", { text: line.text, key: line.key }).then(function (m) {
      page.chatSending = false;
      page.chatOut.shift();
      line.li.remove();
      page.receiveChat(m);
      page.sendChat();
    }, function (err) {
      page.chatSending = false;
      var why = err.status ? err.message : "no connection to the server.";
      if (mayPassLater(err)) {
        var wait = CHAT_RETRY_MS[Math.min(line.tries++, CHAT_RETRY_MS.length - 1)];
        line.li.className = "pending retrying";
        line.note.textContent = " \u2014 not sent yet: " + why + " Sending again in " + Math.round(wait / 1000) + " s.";
        page.chatRetry = setTimeout(function () { page.sendChat(); }, wait);
        return;
      }
      page.chatOut.shift();
      line.li.className = "pending failed";
      line.note.textContent = " \u2014 not sent: " + why + " ";
      line.note.appendChild(el("button", { type: "button", class: "link", "data-testid": "chat-try-again", onclick: function () {
        line.li.remove(); line.tries = 0; page.queueChat(line);
      } }, "Try again"));
      page.sendChat();
    });
  };

  /* "Fair shuffle" (templates/games/_fairness.html): the game just ended under this page, so
     its secret is out and its record and check are offered: the section is drawn again by
     the server, as a page opened now would show it. */
  function refreshFairness(id) {
    fetch("/games/" + id + "/", { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("fairness");
      var old = document.getElementById("fairness");
      if (!fresh || !old) return;
      old.replaceWith(document.importNode(fresh, true));
      wireCheck();
    }).catch(function () { /* the page opened later shows it */ });
  }

  /* "Check this game": the server runs games/rules/verify.py on the game's record; shown
     here step by step, with what it compared. */
  function wireCheck() {
    var box = document.getElementById("check-game");
    if (!box) return;
    var button = document.getElementById("check-run"), out = document.getElementById("check-result");
    button.addEventListener("click", function () {
      button.disabled = true;
      out.hidden = false;
      out.textContent = "Checking…";
      api("GET", "/api/matches/" + box.dataset.match + "/check/").then(function (report) {
        out.textContent = "";
        out.className = "check-result " + (report.ok ? "check-ok" : "check-bad");
        var steps = el("ol", { class: "check-steps", "data-testid": "check-steps" });
        report.checked.forEach(function (step) { steps.appendChild(el("li", { text: step })); });
        out.appendChild(steps);
        var facts = el("dl", { class: "check-facts" });
        function fact(term, value) { facts.appendChild(el("dt", { text: term })); facts.appendChild(el("dd", {}, el("code", { text: String(value) }))); }
        if (report.commitment) fact("Commitment", report.commitment);
        if (report.secret) fact("Secret", report.secret);
        (report.contributions || []).forEach(function (c, i) { fact("Seat " + (i + 1) + "'s contribution", c); });
        if (report.seed !== null) fact("Seed", report.seed);
        fact("Moves replayed", report.moves);
        out.appendChild(facts);
        out.appendChild(el("p", { class: "check-verdict", "data-testid": "check-verdict",
          text: report.ok ? "The record checks." : "Mismatch: " + report.problem }));
      }, function (err) { out.textContent = err.message; }).then(function () { button.disabled = false; });
    });
  }
  Grail.wireCheck = wireCheck;

  Grail.start = function () {
    var root = document.getElementById("match");
    var page = new Page(root);
    Grail.page = page;
    page.wireChat();
    wireCheck();
    page.load().then(function () { page.connect(); });
    // A tab coming back from sleep checks at once rather than at the next heartbeat.
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && page.ws) page.ping(page.ws);
    });
    if (window.Notification && Notification.permission === "default") {
      document.addEventListener("click", function ask() {
        document.removeEventListener("click", ask);
        // Older browsers answer through the callback, newer ones through the promise.
        var asked = Notification.requestPermission(notificationsAnswered);
        if (asked && asked.then) asked.then(notificationsAnswered);
      });
    }
  };

  /* A player who answered "Block" would otherwise never learn why no notification comes:
     the page says how to allow them, and where reminders by e-mail are. */
  function notificationsAnswered(answer) {
    var note = document.getElementById("push-refused");
    if (note && answer === "denied") note.hidden = false;
  }

  /* The replay, move by move. The address always names the move shown (?at=N), so it is a
     link to share; the page opens at the move its address names. Once the game is over the
     viewer may watch it as any seat saw it, or read the rules' whole state (every hand). */
  Grail.startReplay = function () {
    var root = document.getElementById("replay"), id = root.dataset.match;
    var board = document.getElementById("board"), slider = document.getElementById("step");
    var label = document.getElementById("step-label"), events = document.getElementById("replay-events");
    var share = document.getElementById("share-link"), whole = document.getElementById("replay-state");
    var base = null, asSeat = "", full = false;
    function show(step) {
      var url = "/api/matches/" + id + "/replay/?step=" + step + (asSeat === "" ? "" : "&as=" + asSeat) +
        (full ? "&full=true" : "");
      api("GET", url).then(function (frame) {
        slider.max = frame.total; slider.value = frame.step;
        label.textContent = "Step " + frame.step + " of " + frame.total;
        events.textContent = "";
        frame.events.forEach(function (t) { events.appendChild(el("li", {}, ruleLinks(t))); });
        var data = Object.assign({}, base, { view: frame.view, legal_moves: [], replay: true, my_seat: frame.seat });
        (renderers[base.kind] || fallback).render(board, data, {
          submit: function () { return Promise.reject(new Error("This is a replay.")); },
          seatName: function (s) { return base.seats[s] && base.seats[s].username || "Seat " + (s + 1); }, el: el,
          withNames: function (text) { return withNames(text, base.seats); }
        });
        var here = location.pathname + "?at=" + frame.step;
        if (window.history && history.replaceState) history.replaceState(null, "", here);
        share.href = here;
        whole.hidden = !full;
        whole.textContent = full ? JSON.stringify(frame.state, null, 1) : "";
      }).catch(function (err) { label.textContent = err.message; });
    }
    // Once the game is over every hand may be revealed: as any seat saw it, or all of it.
    function seatChooser() {
      var select = el("select", { id: "as-seat", "data-testid": "as-seat" });
      select.appendChild(el("option", { value: "", text: base.my_seat === null ? "a spectator" : "yourself" }));
      base.seats.forEach(function (s) {
        select.appendChild(el("option", { value: String(s.seat + 1), text: s.username || "Seat " + (s.seat + 1) }));
      });
      select.appendChild(el("option", { value: "full", text: "everything (every hand and deck, as the rules hold them)" }));
      select.addEventListener("change", function () {
        full = select.value === "full";
        asSeat = full ? "" : select.value;
        show(slider.value);
      });
      var controls = root.querySelector(".replay-controls");
      controls.parentNode.insertBefore(el("p", { class: "replay-as" }, "Watch as ", select), controls.nextSibling);
    }
    api("GET", "/api/matches/" + id + "/").then(function (d) {
      base = d;
      if (ENDED.indexOf(base.status) >= 0) seatChooser();
      show(root.dataset.at || 0);
    });
    slider.addEventListener("input", function () { show(slider.value); });
    document.getElementById("first").onclick = function () { show(0); };
    document.getElementById("prev").onclick = function () { show(Math.max(0, +slider.value - 1)); };
    document.getElementById("next").onclick = function () { show(Math.min(+slider.max, +slider.value + 1)); };
    document.getElementById("last").onclick = function () { show(slider.max); };
  };

  window.Grail = Grail;
})();
