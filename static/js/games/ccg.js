/* MPHG CCG: England and Avalon as grids of areas, Round Tables, hands, dead carts, the ante
   and the doubling state; every control is built from data.legal_moves (nothing else is
   offered). Text goes in with textContent only: card texts and usernames are user input.
   A face-up play carries the card's quote and running away the shout, as the rules ask
   (docs/rules/ccg.md, 4.2 and 7.6); the player sees both on the button before clicking. */
(function () {
  "use strict";
  var el = Grail.el;
  var SHOUT = "Run away! Run away!";
  var TYPE_NAMES = { questions_three: "questions three", write_yer_own: "Write Yer Own" };
  var WAITS = { turn: "to take a turn", cut: "to cut a deck for the ante", response: "to respond or pass",
                choice: "to choose", balance: "to discard down to seven", offer: "to accept or concede the doubled ante" };

  // What the player is doing between re-renders (every update re-renders).
  var ui = { match: null, selected: null, detail: null, busy: null };

  /* ---- cards --------------------------------------------------------------------- */

  function def(v, code) { return (v.cards && v.cards[code]) || { title: code, type: "" }; }

  function numbers(c) {
    var parts = ["grail " + c.grail];
    if (c.combat !== null && c.combat !== undefined) parts.push("combat " + c.combat);
    if (c.wits !== null && c.wits !== undefined) parts.push("wits " + c.wits);
    if (c.castle_defense !== null && c.castle_defense !== undefined) parts.push("defence " + c.castle_defense);
    return parts.join(" · ");
  }

  function cardText(c) {
    return [c.title + " (" + (TYPE_NAMES[c.type] || c.type) + ")", numbers(c), c.text || "",
            c.quote ? "\u201c" + c.quote + "\u201d" : ""].filter(Boolean).join("\n");
  }

  function titleOf(v, iid) {
    var hit = findCard(v, iid);
    return hit ? def(v, hit.code).title : "card #" + iid;
  }

  // Every face-up card of the view by instance id (areas, round tables, hand, carts, ante).
  function findCard(v, iid) {
    if (!v._index) {
      var idx = {};
      var add = function (c) { if (c && c.id !== undefined) idx[c.id] = c; };
      (v.my_hand || []).forEach(add);
      v.ante.forEach(add); (v.eliminated || []).forEach(add); (v.in_play || []).forEach(add);
      var areas = v.avalon.slice();
      v.players.forEach(function (p) {
        areas = areas.concat(p.england);
        p.dead_cart.forEach(add); p.knights.forEach(add); p.personas.forEach(add); p.attached.forEach(add);
        p.pages.forEach(function (pg) { add(pg.page); pg.items.forEach(add); });
      });
      areas.forEach(function (a) { a.cards.forEach(add); a.attached.forEach(add); add(a.occupant); });
      Object.defineProperty(v, "_index", { value: idx, enumerable: false });
    }
    return v._index[iid];
  }

  // ``own``: the caller handles a click (hand cards select; their text shows with the options).
  function chip(v, c, extra, own) {
    var d = def(v, c.code);
    var node = el("button", { type: "button", class: "ccg-card type-" + (d.type || "x") + (extra ? " " + extra : ""),
                              title: cardText(d), "data-card": c.id, "data-code": c.code },
      el("span", { class: "ccg-title", text: d.title }),
      el("span", { class: "ccg-nums", text: numbers(d) }));
    if (!own) node.addEventListener("click", function (ev) { ev.stopPropagation(); ui.detail = c.code; redraw(); });
    return node;
  }

  /* ---- places ---------------------------------------------------------------------- */

  function rowsOf(size) { return size === 12 ? [4, 3, 3, 2] : [4, 4, 3, 2]; }

  function areaName(v, ctx, ref) {
    if (ref === null || ref === undefined || ref === "rt") return "the Round Table Area";
    if (ref.charAt(0) === "A") return "Avalon " + (parseInt(ref.slice(2), 10) + 1);
    var seat = parseInt(ref.slice(1), 10), index = parseInt(ref.split(".")[1], 10);
    var rows = rowsOf(v.england_size), row = 0;
    while (index >= rows[row]) { index -= rows[row]; row++; }
    return ctx.seatName(seat) + "\u2019s England, row " + (row + 1) + " area " + (index + 1);
  }

  function tablesAt(v, ref) {
    return v.players.filter(function (p) { return !p.out && p.position === ref; }).map(function (p) { return p.seat; });
  }

  function drawArea(v, ctx, a, moveTo) {
    var box = el("div", { class: "ccg-area" + (a.searched ? " searched" : ""), "data-area": a.ref });
    box.appendChild(el("div", { class: "ccg-ref", text: areaName(v, ctx, a.ref).replace(/^.*England, /, "") }));
    if (a.face_down) box.appendChild(el("div", { class: "ccg-down", "data-testid": "face-down",
                                                  text: a.face_down + " face down" }));
    a.cards.forEach(function (c) {
      box.appendChild(chip(v, c, a.hostile.indexOf(c.id) >= 0 ? "hostile" : ""));
    });
    if (a.occupant) box.appendChild(el("div", { class: "ccg-occ" }, el("span", { text: "occupant: " }), chip(v, a.occupant)));
    a.attached.forEach(function (c) { box.appendChild(chip(v, c, "attached")); });
    if (a.searched) box.appendChild(el("div", { class: "ccg-note", text: "searched" }));
    tablesAt(v, a.ref).forEach(function (s) {
      box.appendChild(el("div", { class: "ccg-rt seat-" + s, text: "\u25C9 " + ctx.seatName(s) + "\u2019s Round Table" }));
    });
    if (moveTo) {
      box.classList.add("dest");
      box.appendChild(el("button", { type: "button", class: "ccg-go", "data-testid": "move-" + a.ref,
                                     onclick: function () { send(ctx, moveTo); }, text: "Move here" }));
    }
    return box;
  }

  function drawEngland(v, ctx, p, moves) {
    var rows = rowsOf(v.england_size), start = 0, grid = el("div", { class: "ccg-england" });
    var bands = [];
    rows.forEach(function (w) { bands.push(p.england.slice(start, start + w)); start += w; });
    bands.reverse().forEach(function (band) {   // the top row (next to Avalon) first
      var row = el("div", { class: "ccg-row" });
      band.forEach(function (a) { row.appendChild(drawArea(v, ctx, a, moves[a.ref])); });
      grid.appendChild(row);
    });
    var home = el("div", { class: "ccg-row ccg-home" });
    var rt = el("div", { class: "ccg-area home" }, el("div", { class: "ccg-ref", text: "Round Table Area" }));
    if (p.position === null && !p.out) rt.appendChild(el("div", { class: "ccg-rt seat-" + p.seat, text: "\u25C9 here" }));
    home.appendChild(rt);
    grid.appendChild(home);
    return grid;
  }

  function drawRoundTable(v, ctx, p) {
    var box = el("div", { class: "ccg-table-rt" });
    var members = el("div", { class: "ccg-line" }, el("span", { class: "ccg-label", text: "Knights & personas: " }));
    p.knights.concat(p.personas).forEach(function (c) {
      members.appendChild(chip(v, c, c.id === p.representative ? "rep" : ""));
    });
    box.appendChild(members);
    p.pages.forEach(function (pg) {
      var line = el("div", { class: "ccg-line" }, el("span", { class: "ccg-label", text: "Page: " }), chip(v, pg.page));
      if (pg.knights.length) line.appendChild(el("span", { class: "muted",
        text: " serves " + pg.knights.map(function (k) { return titleOf(v, k); }).join(", ") }));
      pg.items.forEach(function (c) { line.appendChild(chip(v, c, "item")); });
      box.appendChild(line);
    });
    if (p.attached.length) {
      var att = el("div", { class: "ccg-line" }, el("span", { class: "ccg-label", text: "Lasting cards: " }));
      p.attached.forEach(function (c) { att.appendChild(chip(v, c)); });
      box.appendChild(att);
    }
    return box;
  }

  function drawPlayer(v, ctx, p, me, moves) {
    var sec = el("section", { class: "ccg-player seat-" + p.seat + (me ? " me" : ""), "data-seat": p.seat });
    var head = el("h3", { text: ctx.seatName(p.seat) + (me ? " (you)" : "") });
    head.appendChild(el("span", { class: "ccg-counts", "data-testid": "counts-" + p.seat,
      text: " hand " + p.hand_count + " · deck " + p.deck_count + (p.out ? " · out of the game" : "") }));
    sec.appendChild(head);
    sec.appendChild(drawRoundTable(v, ctx, p));
    sec.appendChild(drawEngland(v, ctx, p, moves));
    var cart = el("details", { class: "ccg-cart" }, el("summary", { text: "Dead cart (" + p.dead_cart.length + ")" }));
    p.dead_cart.forEach(function (c) { cart.appendChild(chip(v, c)); });
    sec.appendChild(cart);
    return sec;
  }

  function drawAvalon(v, ctx, moves) {
    var sec = el("section", { class: "ccg-avalon" }, el("h3", { text: "Avalon" + (v.failed_searches ?
      " (" + v.failed_searches + " searched in vain)" : "") }));
    var row = el("div", { class: "ccg-row" });
    v.avalon.forEach(function (a) { row.appendChild(drawArea(v, ctx, a, moves[a.ref])); });
    sec.appendChild(row);
    return sec;
  }

  function drawAnte(v, ctx) {
    var sec = el("section", { class: "ccg-ante", "data-testid": "ante" }, el("h3", { text: "The ante" }));
    v.ante.forEach(function (c) {
      sec.appendChild(el("span", { class: "ccg-owner", text: ctx.seatName(c.owner) + ": " }));
      sec.appendChild(chip(v, c));
    });
    if (!v.ante.length) sec.appendChild(el("span", { class: "muted", text: "nothing yet" }));
    if (v.options.double_the_ante) {
      sec.appendChild(el("p", { class: "ccg-doubling", "data-testid": "doubling",
        text: "Doubled " + v.doubling.count + " time(s)." + (v.doubling.since.length ? " Doubled since the last round: " +
          v.doubling.since.map(ctx.seatName).join(", ") + "." : "") }));
    }
    return sec;
  }

  /* ---- controls -------------------------------------------------------------------- */

  // One submission at a time per version seen: a double click sends once, but a new
  // version (pushed while the platform still reloads after our post) opens the controls again.
  function send(ctx, move) {
    if (ui.busy === last.data.version) return;
    ui.busy = last.data.version;
    // No clearing of the selection here: this promise may settle after a newer version was
    // drawn and a new card chosen; render() drops a selection that left the hand.
    ctx.submit(move).catch(function () {}).then(function () { ui.busy = null; });
  }

  // The words a face-up play or a run-away carries (4.2, 7.6).
  function withWords(v, move) {
    if (move.type === "play" && move.face !== "down") {
      var hit = findCard(v, move.card), q = hit ? def(v, hit.code).quote : "";
      if (q) return Object.assign({}, move, { quote: q });
    }
    if (move.type === "run_away") return Object.assign({}, move, { shout: SHOUT });
    return move;
  }

  function playLabel(v, ctx, m) {
    var parts = [];
    if (m.face === "down") parts.push("face down");
    else parts.push(m.use === "secondary" ? "its second use" : "face up");
    if (m.to === "rt") parts.push("into your Round Table");
    else if (m.to) parts.push("in " + areaName(v, ctx, m.to));
    if (m.page !== undefined) parts.push("on page " + titleOf(v, m.page));
    if (m.pick !== undefined) parts.push("on " + titleOf(v, m.pick));
    if (m.foe !== undefined) parts.push("against " + titleOf(v, m.foe));
    if (m.target !== undefined) parts.push("aimed at " + ctx.seatName(m.target));
    return "Play " + parts.join(", ");
  }

  function label(v, ctx, m) {
    switch (m.type) {
      case "pass": return "Pass";
      case "accept": return "Accept the doubled ante";
      case "concede": return "Concede (you are out of the game)";
      case "search": return "Search Avalon for the Grail";
      case "end_turn": return m.double ? "End turn and double the ante" : "End turn";
      case "give_up": return "Give up the search";
      case "call_draw": return "Call the game a draw";
      case "run_away": return "Run Away! Run Away!" + (m.to !== undefined ? " (to " + areaName(v, ctx, m.to) + ")" : "");
      case "fight": return "Dispute " + titleOf(v, m.foe) + " by " + m.method + ", led by " + titleOf(v, m.lead);
      case "invite": return "Invite " + titleOf(v, m.card) + (m.rep !== undefined ? " (asked by " + titleOf(v, m.rep) + ")" : "");
      case "parley": return "Parley at the castle" + (m.lead !== undefined ? " (" + titleOf(v, m.lead) + ")" : "");
      case "assault": return "Assault the castle" + (m.lead !== undefined ? ", led by " + titleOf(v, m.lead) : "");
      case "enter_castle": return "Enter the castle";
      case "take_item": return "Take " + titleOf(v, m.card) + " onto " + titleOf(v, m.page);
      case "trade_item": return "Move " + titleOf(v, m.card) + " to " + titleOf(v, m.page);
      case "use": return "Use " + titleOf(v, m.card);
      case "represent": return "Make " + titleOf(v, m.card !== undefined ? m.card : m.knight) + " the representative";
      case "move": return "Move to " + areaName(v, ctx, m.to);
      case "discard": return "Discard " + titleOf(v, m.card);
      case "choose": return chooseLabel(v, ctx, m.option);
      case "play": return playLabel(v, ctx, m);
      default:
        return m.type.replace(/_/g, " ");
    }
  }

  function chooseLabel(v, ctx, option) {
    if (option === "apply") return "Apply its effect";
    if (option === "ignore") return "Ignore it";
    if (option === null) return "None";
    if (typeof option === "number") return titleOf(v, option);
    return areaName(v, ctx, option);
  }

  function button(v, ctx, m, cls) {
    return el("button", { type: "button", class: "ccg-move" + (cls ? " " + cls : ""), "data-move": m.type,
                          onclick: function () { send(ctx, withWords(v, m)); }, text: label(v, ctx, m) });
  }

  function promptText(v, ctx, data) {
    var pend = v.pending;
    // The view's own result, not data.outcome: a replay shows earlier steps of a finished game.
    if (v.result) return "Game over: " + (v.result.reason || "");
    if (!pend) return "";
    var who = pend.seat !== undefined ? ctx.seatName(pend.seat) : (pend.waiting || []).map(ctx.seatName).join(", ");
    var text = who + " is asked " + (WAITS[pend.kind] || "to act");
    if (pend.kind === "response") text += " before " + (pend.before || "a grail number") + " (for " + ctx.seatName(pend["for"]) + ")";
    if (pend.kind === "offer") text = ctx.seatName(pend.from) + " doubles the ante: " + who + " must accept or concede";
    if (pend.kind === "choice" && pend.what) text += " (" + pend.what.replace(/_/g, " ") + (pend.card !== undefined ? ": " + titleOf(v, pend.card) : "") + ")";
    return text + ".";
  }

  // My "always pass response windows" preset, kept by the site per seat (docs/rules/ccg-web.md §3).
  function presetToggle(data, ctx) {
    var url = "/api/matches/" + data.id + "/ccg/preset/";
    if (ui.preset === undefined) {
      ui.preset = null;
      Grail.api("GET", url).then(function (r) { ui.preset = r.preset; redraw(); }, function () {});
    }
    var box = el("input", { type: "checkbox", "data-testid": "always-pass" });
    box.checked = ui.preset === "always_pass";
    box.disabled = ui.preset === null;
    box.addEventListener("change", function () {
      var want = box.checked ? "always_pass" : "ask";
      Grail.api("POST", url, { preset: want }).then(function (r) { ui.preset = r.preset; redraw(); },
        function (err) { ctx.showError(err.message); redraw(); });
    });
    return el("label", { class: "ccg-preset" }, box, " Always pass response windows");
  }

  // When an offer or a window waits, say until when (the seats bar shows every clock too).
  function deadlines(v, ctx, data) {
    var pend = v.pending;
    if (!pend || (pend.kind !== "offer" && pend.kind !== "response")) return null;
    var due = data.seats.filter(function (s) { return s.to_act && s.deadline; }).map(function (s) {
      return ctx.seatName(s.seat) + " must answer by " + new Date(s.deadline).toLocaleString();
    });
    return due.length ? el("p", { class: "ccg-deadline", "data-testid": "answer-by", text: due.join("; ") + "." }) : null;
  }

  function drawControls(v, ctx, data) {
    var moves = data.legal_moves || [];
    var box = el("section", { class: "ccg-controls", "data-testid": "controls" });
    box.appendChild(el("p", { class: "ccg-prompt", "data-testid": "prompt", text: promptText(v, ctx, data) }));
    if (data.replay) return box;
    var due = deadlines(v, ctx, data);
    if (due) box.appendChild(due);
    if (data.my_seat !== null && data.my_seat !== undefined && data.status === "active") box.appendChild(presetToggle(data, ctx));
    if (!moves.length) return box;
    var cuts = moves.filter(function (m) { return m.type === "cut"; });
    if (cuts.length) {
      var input = el("input", { type: "number", min: cuts[0].at, max: cuts[cuts.length - 1].at,
                                value: Math.floor((cuts[0].at + cuts[cuts.length - 1].at) / 2), "data-testid": "cut-at" });
      box.appendChild(el("label", { class: "ccg-cut" }, "Lift this many cards off the top: ", input,
        el("button", { type: "button", class: "ccg-move primary", "data-move": "cut", onclick: function () {
          var at = parseInt(input.value, 10);
          var m = cuts.filter(function (c) { return c.at === at; })[0];
          if (m) send(ctx, m); else ctx.showError("Cut between " + input.min + " and " + input.max + " cards.");
        }, text: "Cut" })));
    }
    var general = el("div", { class: "ccg-buttons" });
    moves.forEach(function (m) {
      if (m.type === "cut" || m.type === "play" || m.type === "discard" || m.type === "move") return;
      general.appendChild(button(v, ctx, m, m.type === "run_away" ? "run-away" : ""));
    });
    box.appendChild(general);
    var discards = moves.filter(function (m) { return m.type === "discard"; });
    if (discards.length) box.appendChild(el("p", { class: "muted", text: "Choose a card of your hand to discard." }));
    var plays = moves.filter(function (m) { return m.type === "play"; });
    if (plays.length) box.appendChild(el("p", { class: "muted", text: "Tap a card of your hand to see how it can be played." }));
    return box;
  }

  function drawHand(v, ctx, data) {
    var moves = data.legal_moves || [];
    var sec = el("section", { class: "ccg-hand", "data-testid": "hand" }, el("h3", { text: "Your hand" }));
    var row = el("div", { class: "ccg-hand-cards" });
    v.my_hand.forEach(function (c) {
      var mine = moves.filter(function (m) { return m.card === c.id && (m.type === "play" || m.type === "discard"); });
      var node = chip(v, c, (mine.length ? "playable" : "") + (ui.selected === c.id ? " selected" : ""), true);
      node.addEventListener("click", function () { ui.selected = ui.selected === c.id ? null : c.id; redraw(); });
      row.appendChild(node);
    });
    sec.appendChild(row);
    if (ui.selected !== null) {
      var options = moves.filter(function (m) { return m.card === ui.selected && (m.type === "play" || m.type === "discard"); });
      var d = def(v, (findCard(v, ui.selected) || {}).code);
      var panel = el("div", { class: "ccg-options", "data-testid": "card-options" },
        el("p", { class: "ccg-text" }, el("b", { text: d.title + ": " }), (d.text || "") + " (" + numbers(d) + ")"));
      if (!options.length) panel.appendChild(el("p", { class: "muted", text: d.title + " cannot be played now." }));
      options.forEach(function (m) {
        var b = button(v, ctx, m);
        if (m.type === "play" && m.face !== "down" && d.quote) b.appendChild(el("span", { class: "ccg-quote", text: " \u2014 you read: \u201c" + d.quote + "\u201d" }));
        panel.appendChild(b);
      });
      sec.appendChild(panel);
    }
    return sec;
  }

  function drawDetail(v) {
    if (!ui.detail || !v.cards[ui.detail]) return null;
    var d = v.cards[ui.detail];
    var box = el("aside", { class: "ccg-detail", "data-testid": "card-detail" },
      el("button", { type: "button", class: "ccg-close", onclick: function () { ui.detail = null; redraw(); }, text: "\u00D7" }),
      el("h4", { text: d.title }), el("p", { class: "muted", text: (TYPE_NAMES[d.type] || d.type) + " · " + numbers(d) }));
    if (d.text) box.appendChild(el("p", { text: d.text }));
    if (d.quote) box.appendChild(el("p", { class: "ccg-quote", text: "\u201c" + d.quote + "\u201d" }));
    return box;
  }

  /* ---- the whole game area --------------------------------------------------------- */

  var last = null;
  function redraw() { if (last) render(last.root, last.data, last.ctx); }

  function render(root, data, ctx) {
    last = { root: root, data: data, ctx: ctx };
    if (ui.match !== data.id) ui = { match: data.id, selected: null, detail: null, busy: ui.busy };
    var v = data.view;
    var moves = {};
    (data.legal_moves || []).forEach(function (m) { if (m.type === "move") moves[m.to === null ? "rt" : m.to] = m; });
    if (ui.selected !== null && !(v.my_hand || []).some(function (c) { return c.id === ui.selected; })) ui.selected = null;
    root.textContent = "";
    var wrap = el("div", { class: "ccg" });
    wrap.appendChild(drawControls(v, ctx, data));
    if (v.my_hand) wrap.appendChild(drawHand(v, ctx, data));
    var detail = drawDetail(v);
    if (detail) wrap.appendChild(detail);
    if (moves.rt) wrap.appendChild(button(v, ctx, moves.rt));
    wrap.appendChild(drawAnte(v, ctx));
    wrap.appendChild(drawAvalon(v, ctx, moves));
    var me = data.my_seat;
    var order = v.players.slice().sort(function (a, b) { return (b.seat === me) - (a.seat === me); });
    order.forEach(function (p) { wrap.appendChild(drawPlayer(v, ctx, p, p.seat === me, moves)); });
    root.appendChild(wrap);
  }

  Grail.registerRenderer("ccg", { render: render });
})();
