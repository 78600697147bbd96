/* Cup Quest: the hex map in SVG, my hand, clickable legal destinations, battle and attack
   choices, and the snipe aiming control. Every control is built from data.legal_moves;
   text goes in with textContent only (usernames are user input). */
(function () {
  "use strict";
  var el = Grail.el;
  var SVG = "http://www.w3.org/2000/svg";
  var SIZE = 20;                     // hex radius in SVG units
  var SQRT3 = Math.sqrt(3);
  var SUIT = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var RANK = { J: "Jack", Q: "Queen", K: "King", A: "Ace" };
  var SUIT_NAME = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };

  // What the player is doing between re-renders (a re-render happens on every update).
  var ui = { match: null, card: null, target: null, angle: 0, strength: 50, busy: false };

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    if (text != null) node.textContent = text;
    return node;
  }

  function parseHex(key) { var p = key.split(","); return [parseInt(p[0], 10), parseInt(p[1], 10)]; }
  function centre(key) {
    var h = parseHex(key);
    return [SIZE * SQRT3 * (h[0] + h[1] / 2), SIZE * 1.5 * h[1]];
  }
  function corners(key) {
    var c = centre(key), pts = [];
    for (var i = 0; i < 6; i++) {
      var a = Math.PI / 180 * (60 * i - 30);
      pts.push((c[0] + SIZE * Math.cos(a)).toFixed(1) + "," + (c[1] + SIZE * Math.sin(a)).toFixed(1));
    }
    return pts.join(" ");
  }

  function cardLabel(card) { return card.slice(0, -1) + SUIT[card.slice(-1)]; }
  function cardName(card) {
    var r = card.slice(0, -1);
    return (RANK[r] || r) + " of " + SUIT_NAME[card.slice(-1)];
  }
  function isRed(card) { var s = card.slice(-1); return s === "H" || s === "D"; }

  function send(ctx, move) {
    if (ui.busy) return;
    ui.busy = true;
    ctx.submit(move).then(function () { ui.card = null; }, function () {})
      .then(function () { ui.busy = false; });
  }

  function byType(moves, type) { return moves.filter(function (m) { return m.type === type; }); }

  /* ---- the map ------------------------------------------------------------------- */

  function drawMap(v, moves, ctx) {
    var b = v.board;
    var all = b.cells.concat(b.rocks);
    var xs = [], ys = [];
    all.forEach(function (k) { var c = centre(k); xs.push(c[0]); ys.push(c[1]); });
    var pad = SIZE * 1.2;
    var minX = Math.min.apply(null, xs) - pad, minY = Math.min.apply(null, ys) - pad;
    var w = Math.max.apply(null, xs) - minX + pad, h = Math.max.apply(null, ys) - minY + pad;
    var map = svg("svg", { viewBox: [minX, minY, w, h].map(function (n) { return n.toFixed(1); }).join(" "),
                           class: "cq-map", role: "img", "aria-label": "Map of " + b.title });

    var teleportAt = {};
    Object.keys(b.teleports).forEach(function (card) { teleportAt[b.teleports[card]] = card; });
    var alcoveOf = {};
    v.alcoves.forEach(function (k, seat) { if (!v.resigned[seat]) alcoveOf[k] = seat; });
    var dest = {};
    if (ui.card) byType(moves, "move").forEach(function (m) { if (m.card === ui.card) dest[m.to] = m; });

    b.rocks.forEach(function (k) { map.appendChild(svg("polygon", { points: corners(k), class: "cq-rock" })); });
    b.cells.forEach(function (k) {
      var cls = "cq-cell";
      if (alcoveOf[k] !== undefined) cls += " cq-alcove seat-" + alcoveOf[k];
      if (teleportAt[k]) cls += " cq-teleport";
      if (dest[k]) cls += " cq-dest";
      var poly = svg("polygon", { points: corners(k), class: cls, "data-hex": k });
      if (alcoveOf[k] !== undefined) poly.appendChild(svg("title", {}, ctx.seatName(alcoveOf[k]) + "'s alcove"));
      if (v.grail.at === k) poly.appendChild(svg("title", {}, "The Holy Grail"));
      if (dest[k]) {
        poly.setAttribute("tabindex", "0");
        poly.setAttribute("role", "button");
        poly.setAttribute("aria-label", "Move to " + placeName(v, k, teleportAt[k]));
        poly.addEventListener("click", function () { send(ctx, dest[k]); });
        poly.addEventListener("keydown", function (e) {
          if (e.key !== "Enter" && e.key !== " ") return;
          e.preventDefault();  // Space would scroll the page as well
          send(ctx, dest[k]);
        });
      }
      map.appendChild(poly);
    });
    Object.keys(teleportAt).forEach(function (k) {
      var c = centre(k), card = teleportAt[k];
      map.appendChild(svg("text", { x: c[0], y: c[1] + 4, class: "cq-tp-label" + (isRed(card) ? " red" : "") },
                          card[0] + SUIT[card[1]]));
    });

    // The last move, as a faint trail.
    if (v.last_move && v.last_move.path && v.last_move.path.length > 1) {
      var pts = v.last_move.path.map(function (k) { return centre(k).join(","); }).join(" ");
      map.appendChild(svg("polyline", { points: pts, class: "cq-trail seat-" + v.last_move.seat +
                                        (v.last_move.teleport ? " jump" : "") }));
    }

    Object.keys(b.monsters).forEach(function (id) {
      var m = b.monsters[id], c = centre(m.at);
      var body = svg("circle", { cx: c[0], cy: c[1], r: SIZE * 0.8, class: "cq-monster" });
      body.appendChild(svg("title", {}, m.name));  // on the circle: the label lets the pointer through
      map.appendChild(body);
      map.appendChild(svg("text", { x: c[0], y: c[1] + 4, class: "cq-monster-label" }, m.name.replace("Big ", "")));
    });

    if (v.grail.at) map.appendChild(grailIcon(centre(v.grail.at), "cq-grail"));

    v.positions.forEach(function (k, seat) {
      if (!k) return;
      var c = centre(k);
      var g = svg("g", { class: "cq-piece seat-" + seat + (v.turn === seat ? " to-act" : ""), "data-seat": seat });
      g.appendChild(svg("circle", { cx: c[0], cy: c[1], r: SIZE * 0.62 }));
      g.appendChild(svg("text", { x: c[0], y: c[1] + 4 }, String(seat + 1)));
      g.appendChild(svg("title", {}, ctx.seatName(seat) + (v.grail.carrier === seat ? ", carrying the Holy Grail" : "")));
      if (v.frozen[seat]) g.appendChild(svg("circle", { cx: c[0], cy: c[1], r: SIZE * 0.8, class: "cq-ice" }));
      map.appendChild(g);
      if (v.grail.carrier === seat) map.appendChild(grailIcon([c[0] + SIZE * 0.55, c[1] - SIZE * 0.55], "cq-grail carried"));
    });
    return map;
  }

  // A destination in words for screen readers: what is there, else its coordinates.
  function placeName(v, k, teleportCard) {
    if (v.grail.at === k) return "the Holy Grail";
    if (v.my_seat !== null && v.alcoves[v.my_seat] === k) return "your alcove";
    if (teleportCard) return "the " + cardName(teleportCard) + " teleport space";
    return "hex " + k;
  }

  /* The cup is drawn over its hex but lets clicks through (see .cq-grail in the CSS): the
     hex under it is the most wanted destination of the game. Its tooltip is on the hex. */
  function grailIcon(c, cls) {
    var s = SIZE * 0.45, x = c[0], y = c[1];
    var g = svg("g", { class: cls });
    function pt(dx, dy) { return (x + dx * s).toFixed(1) + "," + (y + dy * s).toFixed(1); }
    // A cup: bowl, stem and foot.
    g.appendChild(svg("path", { d: "M" + pt(-1, -1) + " L" + pt(1, -1) + " Q" + pt(1, 0.2) + " " + pt(0.25, 0.2) +
                                   " L" + pt(0.25, 0.6) + " L" + pt(0.6, 0.6) + " L" + pt(0.6, 0.9) + " L" + pt(-0.6, 0.9) +
                                   " L" + pt(-0.6, 0.6) + " L" + pt(-0.25, 0.6) + " L" + pt(-0.25, 0.2) +
                                   " Q" + pt(-1, 0.2) + " " + pt(-1, -1) + " Z" }));
    return g;
  }

  /* ---- panels -------------------------------------------------------------------- */

  function statusLine(data, ctx) {
    var v = data.view;
    if (v.result || (!data.replay && data.status && data.status !== "active")) {
      // A live page says who won and why once, in the banner above the board (match.js).
      if (!data.replay) return "The game is over.";
      // The rules only know seat numbers; name the winner here.
      if (v.result.winners.length === 1 && v.grail.carrier === v.result.winners[0])
        return ctx.seatName(v.result.winners[0]) + " brings the Holy Grail home!";
      if (v.result.winners.length === 1) return ctx.seatName(v.result.winners[0]) + " wins: " + ctx.withNames(v.result.reason);
      return ctx.withNames(v.result.reason);
    }
    var p = v.pending, who = ctx.seatName(p ? p.seat : v.turn);
    var mine = data.my_seat !== null && data.my_seat === (p ? p.seat : v.turn);
    if (p && p.kind === "battle") return (mine ? "You must" : who + " must") + " fight " + v.board.monsters[p.monsters[0]].name + ".";
    if (p && p.kind === "attack") return (mine ? "You may" : who + " may") + " attack a neighbour.";
    var round = " \u2014 round " + v.round + (v.frozen[v.turn] ? " (frozen)" : "");
    if (!mine) return who + "'s turn" + round + ".";
    // The next step in words: what a turn may be, as the buttons below offer it.
    return "Your turn" + round + (v.frozen[v.turn] ? ": snipe or pass." : ": play a card, throw one away, or snipe.");
  }

  function handPanel(data, ctx, rerender) {
    var v = data.view, moves = data.legal_moves || [];
    var box = el("section", { class: "cq-hand", "data-testid": "hand" }, el("h3", { text: "Your hand" }));
    var row = el("div", { class: "cq-cards" });
    v.my_hand.forEach(function (card) {
      var playable = moves.some(function (m) { return m.card === card && m.type !== "discard"; });
      var b = el("button", { class: "cq-card" + (isRed(card) ? " red" : "") + (ui.card === card ? " selected" : ""),
                             "data-card": card, title: cardName(card), "aria-pressed": String(ui.card === card) },
                 cardLabel(card));
      var usable = moves.some(function (m) { return m.card === card; });
      if (!usable) b.disabled = true;
      b.addEventListener("click", function () { ui.card = ui.card === card ? null : card; rerender(); });
      if (!playable && usable) b.classList.add("discard-only");
      row.appendChild(b);
    });
    box.appendChild(row);
    if (!ui.card) {
      if (moves.some(function (m) { return m.card; })) box.appendChild(el("p", { class: "muted", text: "Pick a card to see what it can do." }));
      return box;
    }
    var card = ui.card, acts = el("div", { class: "cq-actions" });
    var walks = byType(moves, "move").filter(function (m) { return m.card === card; });
    if (walks.length) acts.appendChild(el("p", { class: "muted", text: "Click a glowing hex to move there (" + walks.length + " choices)." }));
    else if (card.slice(0, -1) !== "A") acts.appendChild(el("p", { class: "muted", text: "This card cannot move you anywhere now." }));
    byType(moves, "teleport").filter(function (m) { return m.card === card; }).forEach(function (m) {
      acts.appendChild(el("button", { class: "primary", "data-testid": "teleport", onclick: function () { send(ctx, m); } },
        "Teleport to the " + cardName(card).replace(/ of .*/, "") + " of " + SUIT_NAME[card.slice(-1)] + " (1\u20133 on a die)"));
    });
    byType(moves, "freeze").filter(function (m) { return m.card === card; }).forEach(function (m) {
      acts.appendChild(el("button", { class: "primary", "data-testid": "freeze-" + m.target, onclick: function () { send(ctx, m); } },
        "Freeze " + ctx.seatName(m.target)));
    });
    byType(moves, "discard").filter(function (m) { return m.card === card; }).forEach(function (m) {
      acts.appendChild(el("button", { "data-testid": "discard", onclick: function () { send(ctx, m); } }, "Discard it for a new card"));
    });
    box.appendChild(acts);
    return box;
  }

  function choicePanel(data, ctx) {
    var moves = data.legal_moves || [], v = data.view;
    var box = el("div", { class: "cq-choices" });
    byType(moves, "fight").forEach(function (m) {
      box.appendChild(el("button", { class: "primary", "data-testid": "fight", onclick: function () { send(ctx, m); } },
        "Fight " + v.board.monsters[m.monster].name + " (one die each)"));
    });
    byType(moves, "attack").forEach(function (m) {
      box.appendChild(el("button", { class: "primary", "data-testid": "attack-" + m.target, onclick: function () { send(ctx, m); } },
        "Attack " + ctx.seatName(m.target)));
    });
    byType(moves, "decline").forEach(function (m) {
      box.appendChild(el("button", { "data-testid": "decline", onclick: function () { send(ctx, m); } }, "Don't attack"));
    });
    byType(moves, "pass").forEach(function (m) {
      box.appendChild(el("button", { "data-testid": "pass", onclick: function () { send(ctx, m); } },
        v.frozen[data.my_seat] ? "Stay frozen (pass)" : "Pass"));
    });
    return box.childNodes.length ? box : null;
  }

  function snipePanel(data, ctx, rerender) {
    var v = data.view, shots = byType(data.legal_moves || [], "snipe");
    if (!shots.length) return null;
    var targets = shots.map(function (m) { return m.target; });
    if (targets.indexOf(ui.target) < 0) ui.target = targets[0];
    var box = el("section", { class: "cq-snipe", "data-testid": "snipe" },
      el("h3", { text: "Snipe (" + v.snipes_left[data.my_seat] + " left)" }));
    var sel = el("select", { "aria-label": "Target" });
    targets.forEach(function (t) {
      var o = el("option", { value: String(t) }, ctx.seatName(t));
      if (t === ui.target) o.selected = true;
      sel.appendChild(o);
    });
    sel.addEventListener("change", function () { ui.target = parseInt(sel.value, 10); });
    var table = aimPicture(v.goblet);
    var angle = el("input", { type: "range", min: "-45", max: "45", step: "0.5", value: String(ui.angle), "aria-label": "Angle" });
    var strength = el("input", { type: "range", min: "0", max: "100", step: "0.5", value: String(ui.strength), "aria-label": "Strength" });
    var readout = el("span", { class: "muted" });
    function update() {
      ui.angle = parseFloat(angle.value); ui.strength = parseFloat(strength.value);
      readout.textContent = "angle " + ui.angle + "\u00b0, strength " + ui.strength;
      table.aim(ui.angle, ui.strength);
    }
    angle.addEventListener("input", update);
    strength.addEventListener("input", update);
    update();
    box.appendChild(el("label", {}, "Target ", sel));
    box.appendChild(table.node);
    box.appendChild(el("label", { class: "cq-slider" }, "Angle ", angle));
    box.appendChild(el("label", { class: "cq-slider" }, "Strength ", strength));
    box.appendChild(readout);
    box.appendChild(el("button", { class: "primary", "data-testid": "snipe-fire", onclick: function () {
      send(ctx, { type: "snipe", target: ui.target, angle: ui.angle, strength: ui.strength });
    } }, "Snipe!"));
    box.appendChild(el("p", { class: "muted", text: "Two throws with your aim; either one in the goblet sends the target home. The server rolls the wobble." }));
    return box;
  }

  /* The table seen from above: you at the bottom edge, the goblet somewhere ahead, marks every
     20 units. The dashed ray shows the direction of the aim exactly; strength n carries the
     ball n units, which the player judges against the marks (that judgement is the skill). */
  function aimPicture(goblet) {
    var W = 120, H = 110, scale = 1;
    var node = svg("svg", { viewBox: (-W / 2) + " -" + (H - 5) + " " + W + " " + H, class: "cq-table", role: "img",
                            "aria-label": "Goblet " + goblet.distance + " ahead, " + goblet.offset + " to the side" });
    node.appendChild(svg("rect", { x: -W / 2 + 2, y: -H + 8, width: W - 4, height: H - 10, class: "cq-table-top" }));
    for (var d = 20; d <= 100; d += 20) {
      node.appendChild(svg("line", { x1: -W / 2 + 2, x2: W / 2 - 2, y1: -d, y2: -d, class: "cq-tick" }));
      node.appendChild(svg("text", { x: -W / 2 + 4, y: -d - 1, class: "cq-tick-label" }, String(d)));
    }
    node.appendChild(svg("circle", { cx: goblet.offset * scale, cy: -goblet.distance * scale, r: 5, class: "cq-goblet" }));
    var clip = "cq-clip-" + goblet.distance + "-" + goblet.offset;
    var defs = svg("defs", {});
    var cp = svg("clipPath", { id: clip });
    cp.appendChild(svg("rect", { x: -W / 2 + 2, y: -H + 8, width: W - 4, height: H - 10 }));
    defs.appendChild(cp);
    node.appendChild(defs);
    var arrow = svg("line", { x1: 0, y1: 0, x2: 0, y2: 0, class: "cq-aim", "clip-path": "url(#" + clip + ")" });
    node.appendChild(arrow);
    return {
      node: node,
      aim: function (angle, strength) {
        var a = angle * Math.PI / 180;
        arrow.setAttribute("x2", (Math.sin(a) * 140).toFixed(1));
        arrow.setAttribute("y2", (-Math.cos(a) * 140).toFixed(1));
      }
    };
  }

  function playersPanel(data, ctx) {
    var v = data.view;
    var list = el("ul", { class: "cq-players", "data-testid": "players" });
    v.order.forEach(function (seat) {
      var bits = [];
      if (v.resigned[seat]) bits.push("left the game");
      else {
        bits.push(v.snipes_left[seat] + (v.snipes_left[seat] === 1 ? " snipe left" : " snipes left"));
        if (v.frozen[seat]) bits.push("frozen for " + v.frozen[seat] + " more turn" + (v.frozen[seat] > 1 ? "s" : ""));
        if (v.grail.carrier === seat) bits.push("carries the Grail");
        if (v.positions[seat] === v.alcoves[seat]) bits.push("at home");
      }
      list.appendChild(el("li", { class: "seat-" + seat + (v.turn === seat ? " to-act" : ""), "data-seat": String(seat) },
        el("span", { class: "dot" }), el("b", { text: ctx.seatName(seat) }), " " + bits.join(", ")));
    });
    return list;
  }

  function pilesLine(v) {
    var p = el("p", { class: "muted cq-piles" }, v.draw_count + " cards to draw; discard pile " + v.discard_count);
    if (v.discard_top) p.appendChild(el("span", { class: "cq-mini" + (isRed(v.discard_top) ? " red" : ""), text: cardLabel(v.discard_top) }));
    return p;
  }

  function lastSnipe(v, ctx) {
    var s = v.last_snipe;
    if (!s) return null;
    var text = ctx.seatName(s.seat) + " sniped at " + ctx.seatName(s.target) + ": " +
      s.attempts.map(function (a, i) { return "throw " + (i + 1) + " " + (a["in"] ? "in!" : "missed by " + a.miss_by); }).join(", ") +
      (s.hit ? " \u2014 a hit." : " \u2014 no luck.");
    return el("p", { class: "cq-last-snipe", text: text });
  }

  // What the board on screen was last drawn from (see the start of render).
  var shown = { root: null, key: null };

  Grail.registerRenderer("cupquest", {
    render: function (root, data, ctx) {
      // The page hands the same state over twice after your own move (the websocket push
      // and the reply to the move). Rebuilding an unchanged board would throw away the
      // buttons under a click in progress, so an identical state leaves it as it is.
      var key = JSON.stringify([data.id, data.my_seat, data.view, data.legal_moves,
                                (data.seats || []).map(function (s) { return s.username; })]);
      if (shown.root === root && shown.key === key && root.firstChild) return;
      shown = { root: root, key: key };
      var v = data.view;
      if (ui.match !== data.id) ui = { match: data.id, card: null, target: null, angle: 0, strength: 50, busy: false };
      // Drop a chosen card that can no longer be played: it left the hand, or the turn
      // went away (a timed-out clock) while it was picked.
      if (ui.card && !(data.legal_moves || []).some(function (m) { return m.card === ui.card; })) ui.card = null;
      function rerender() { render(); }
      function render() {
        root.textContent = "";
        var wrap = el("div", { class: "cq" });
        wrap.appendChild(el("p", { class: "cq-status", "data-testid": "status", text: statusLine(data, ctx) }));
        var layout = el("div", { class: "cq-layout" });
        layout.appendChild(el("div", { class: "cq-map-wrap" }, drawMap(v, data.legal_moves || [], ctx)));
        var panel = el("div", { class: "cq-panel" });
        var choices = choicePanel(data, ctx);
        if (v.my_hand) panel.appendChild(handPanel(data, ctx, rerender));
        if (choices) panel.insertBefore(choices, byType(data.legal_moves || [], "pass").length ? null : panel.firstChild);
        var sniping = snipePanel(data, ctx, rerender);
        if (sniping) panel.appendChild(sniping);
        panel.appendChild(playersPanel(data, ctx));
        panel.appendChild(pilesLine(v));
        var ls = lastSnipe(v, ctx);
        if (ls) panel.appendChild(ls);
        layout.appendChild(panel);
        wrap.appendChild(layout);
        root.appendChild(wrap);
      }
      render();
    }
  });
})();
