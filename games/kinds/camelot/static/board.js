/* Camelot: the table in the browser.

   The board is SVG drawn from the board's public data (GET /api/camelot/boards/<name>/,
   fetched once per board): terrain, Excalibur's blue diamond, the red diamonds, the edge
   ring, Entry hexes in their owners' colours; then items and gold lying on hexes, and the
   units by colour and type with whatever they carry. Every control is built from
   data.legal_moves, so the page offers exactly what the engine accepts: an Entry hex in the
   entry phase; targets to declare (click the enemy units, then "Declare attacks"); a piece
   on the board or in the reserve tray, then one of its glowing destinations (Merlin's
   Teleport is a separate, violet set); drops; strikes (a declared target, then the striker,
   with the line of sight drawn); asks to other players; End turn; Pause and Resume. "Take
   back" comes from the view's mark, not from the legal moves, which computers choose from.
   The answers to asks are the shared decision bar's (static/js/match.js, drawDecisions).
   Text goes in with textContent only: usernames and questions are user input. */
(function () {
  "use strict";
  var el = Grail.el;
  var SVG = "http://www.w3.org/2000/svg";
  var SIZE = 20;                      // hex radius in SVG units
  var SQRT3 = Math.sqrt(3);
  var PIECES = ["arthur", "galahad", "lancelot", "merlin", "morgan"];
  var GLYPH = { arthur: "A", galahad: "G", lancelot: "L", merlin: "Me", morgan: "Mo" };
  var NAME = { arthur: "Arthur", galahad: "Galahad", lancelot: "Lancelot", merlin: "Merlin", morgan: "Morgan" };
  var PLURAL = { arthur: "Arthurs", galahad: "Galahads", lancelot: "Lancelots", merlin: "Merlin", morgan: "Morgan" };
  var MODE = { melee: "sword", bow: "bow", zot: "Zot", fireball: "Fireball", curse: "Curse",
               death_touch: "Death Touch", sweep: "sweeping blow" };
  var ITEM = { excalibur: "Excalibur", crown: "the Crown", scepter: "the Scepter", robe: "the Robe",
               throne: "the Throne" };
  var SPELL = { teleport: "Teleport", fireball: "Fireball", death_touch: "Death Touch" };
  var MAX_QUESTION = 200;

  /* ---- the board's data ------------------------------------------------------------- */

  var boards = {}, loading = {}, boardError = null;

  function withBoard(name, then) {
    if (boards[name]) { then(); return; }
    (loading[name] = loading[name] || []).push(then);
    if (loading[name].length > 1) return;
    // "?labels": the board's data gained hex names and edge labels; a browser holding the
    // older answer in its cache (an hour) asks again.
    Grail.api("GET", "/api/camelot/boards/" + encodeURIComponent(name) + "/?labels").then(function (b) {
      boards[name] = normalise(b); boardError = null;
    }, function (err) { boardError = err.message; }).then(function () {
      var waiting = loading[name]; delete loading[name];
      waiting.forEach(function (f) { f(); });
    });
  }

  // The page reads terrain per hex, the blue and red diamonds and the edge ring (see
  // REQUESTS FROM WEB in the spec); a few other spellings of the same keys are accepted.
  function normalise(b) {
    var terrain = b.terrain || b.hexes || {};
    if (Array.isArray(terrain)) {
      var t = {};
      terrain.forEach(function (h) { t[h.hex || h.key] = h.terrain; });
      terrain = t;
    }
    var edge = b.edge || b.edge_spaces || [];
    var items = b.item_spaces || b.red_diamonds || [];
    if (!Array.isArray(items)) {  // {item: "q,r"}, the item that starts on each red diamond
      var spaces = items;
      items = Object.keys(spaces).map(function (k) { return /^-?\d+,-?\d+$/.test(k) ? k : spaces[k]; });
    }
    return { name: b.name, terrain: terrain, excalibur: b.excalibur || b.blue_diamond || "0,0",
             items: items, edge: edge, edgeSet: toSet(edge), itemSet: toSet(items),
             names: b.names || {}, labels: b.labels || [] };
  }

  // A hex as people name it ("h8"), as the labels along the board's edges read: the rules
  // name hexes the same way in the log (games/rules/camelot/squares.py).
  function hexName(k) {
    var b = current && boards[current.data.view.board];
    return (b && b.names[k]) || k;
  }

  function toSet(list) { var s = {}; (list || []).forEach(function (k) { s[k] = true; }); return s; }

  /* ---- geometry ----------------------------------------------------------------------- */

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    if (text != null) node.textContent = text;
    return node;
  }

  function parseHex(key) { var p = String(key).split(","); return [parseInt(p[0], 10), parseInt(p[1], 10)]; }
  function centre(key) {
    var h = parseHex(key);
    return [SIZE * SQRT3 * (h[0] + h[1] / 2), SIZE * 1.5 * h[1]];
  }
  function corners(key, scale) {
    var c = centre(key), pts = [], r = SIZE * (scale || 1);
    for (var i = 0; i < 6; i++) {
      var a = Math.PI / 180 * (60 * i - 30);
      pts.push((c[0] + r * Math.cos(a)).toFixed(1) + "," + (c[1] + r * Math.sin(a)).toFixed(1));
    }
    return pts.join(" ");
  }
  function diamond(c, r) {
    return [[c[0], c[1] - r], [c[0] + r * 0.75, c[1]], [c[0], c[1] + r], [c[0] - r * 0.75, c[1]]]
      .map(function (p) { return p[0].toFixed(1) + "," + p[1].toFixed(1); }).join(" ");
  }

  /* ---- what the legal moves offer ----------------------------------------------------- */

  function index(moves) {
    var o = { entry: {}, targets: {}, declares: [], enter: {}, move: {}, drop: {}, strikes: [], sweeps: [],
              askAlly: [], askDisengage: [], endTurn: null, pause: null, resume: null };
    moves.forEach(function (m) {
      switch (m.type) {
        case "entry": o.entry[m.hex] = m; break;
        case "declare":
          o.declares.push(m);
          (m.targets || []).forEach(function (t) { o.targets[t] = true; });
          break;
        case "enter": add(o.enter, m.piece, m); break;
        case "move": add(o.move, m.unit, m); break;
        case "drop": o.drop[m.unit] = m; break;
        case "strike": (m.target ? o.strikes : o.sweeps).push(m); break;
        case "ask_ally": o.askAlly.push(m); break;
        case "ask_disengage": o.askDisengage.push(m); break;
        case "end_turn": o.endTurn = m; break;
        case "pause": o.pause = m; break;
        case "resume": o.resume = m; break;
      }
    });
    return o;
  }

  // Destinations of one piece: plain moves and Merlin's teleports kept apart.
  function add(table, who, m) {
    var t = table[who] || (table[who] = { walk: {}, teleport: {} });
    (m.teleport ? t.teleport : t.walk)[m.to] = m;
  }

  function hasKeys(o) { return !!o && Object.keys(o).length > 0; }

  /* ---- words -------------------------------------------------------------------------- */

  // A unit's number, from its id ("s2-arthur-3" -> "3"): a player's Arthurs, Galahads and
  // Lancelots are told apart by it everywhere (the engine's names use the same number);
  // Merlin and Morgan need none, a player has one of each.
  var SEVERAL = { arthur: true, galahad: true, lancelot: true };
  function unitNumber(uid) { var m = /-(\d+)$/.exec(uid || ""); return m ? m[1] : ""; }

  function unitName(v, uid, ctx, me) {
    var u = v.units[uid];
    if (/^guardian-/.test(uid || "")) return "Guardian " + unitNumber(uid);
    if (!u) {  // gone from the board: its id still says whose and what it was ("s2-arthur-3")
      var m = /^s(\d+)-([a-z]+)-\d+$/.exec(uid || "");
      if (m && NAME[m[2]]) u = { seat: parseInt(m[1], 10), type: m[2] };
      else return "a piece no longer on the board";
    }
    var kind = NAME[u.type] + (SEVERAL[u.type] ? " " + unitNumber(uid) : "");
    if (u.seat === me) return "your " + kind;
    return ctx.seatName(u.seat) + "'s " + kind;
  }

  // The name and what the unit carries: "tim's Arthur 3 carrying Excalibur".
  function unitLabel(v, uid, ctx, me) {
    var u = v.units[uid], name = unitName(v, uid, ctx, me);
    return u && u.carry ? name + " carrying " + itemName(u.carry, v) : name;
  }

  function itemName(id, v) {
    if (ITEM[id]) return ITEM[id];
    if (/^gold-/.test(id)) {
      var worth = v.item_values && v.item_values[id];
      return worth ? worth + " gold" : "gold";
    }
    return id;
  }

  function stageWords(turn) {
    if (!turn) return "";
    if (turn.stage === "declare") return "declaring attacks";
    if (turn.stage === "move") return "moving (" + turn.moves_left + " left)";
    return "attacking";
  }

  function statusLine(data, ctx) {
    var v = data.view, me = data.my_seat, mine = me !== null && me !== undefined;
    // A game the site stopped (no person left playing) is over with no result in the view.
    if (v.result || v.phase === "over" || (!data.replay && data.status && data.status !== "active")) {
      if (!data.replay) return "The game is over.";  // who won and why: said once, in the banner above (match.js)
      return ctx.withNames(v.result && v.result.reason || "The game is over.");
    }
    if (v.paused) {
      return "The table is paused by " + ctx.seatName(v.paused.by) + ": \u201c" + v.paused.question +
             "\u201d \u2014 every clock is stopped.";
    }
    if (v.phase === "entry") {
      if (mine && v.entry_turn === me) return "Choose your Entry hex: click one of the glowing edge spaces.";
      return ctx.seatName(v.entry_turn) + " is choosing an Entry hex.";
    }
    var turn = mine ? v.turns[String(me)] : null;
    if (turn && (v.tokens || []).indexOf(me) >= 0) return "Your turn " + turn.number + ": " + nextStep(data, turn) + ".";
    var holders = (v.tokens || []).map(function (s) {
      return ctx.seatName(s) + " (" + stageWords(v.turns[String(s)]) + ")";
    });
    return (holders.length > 1 ? "Turns at the same time: " : "Turn: ") + holders.join(" and ") + ".";
  }

  /* The holder's next step in words, from what the legal moves still offer: "declare
     any attacks first, or just move", "move 1 more piece, then strike your targets",
     "strike your targets, then end your turn", "end your turn". */
  function nextStep(data, turn) {
    var o = index(data.legal_moves || []);
    var canMove = hasKeys(o.move) || hasKeys(o.enter);
    var canStrike = o.strikes.length > 0 || o.sweeps.length > 0;
    var pieces = turn.moves_left === 1 ? "1 more piece" : turn.moves_left + " more pieces";
    var targets = turn.declared.length === 1 ? "your target" : "your targets";
    if (turn.stage === "declare") {
      if (o.declares.length) return "declare any attacks first (click enemy pieces in reach), or just move";
      return canMove ? "move up to " + pieces + " (nothing is in reach to attack), then end your turn" : "end your turn";
    }
    var after = canStrike ? "strike " + targets + ", then end your turn" :
      (turn.declared.length ? "end your turn to resolve your attacks" : "end your turn");
    if (turn.stage === "move" && canMove && turn.moves_left > 0) return "move up to " + pieces + ", then " + after;
    return after;
  }

  /* ---- what the player is doing between redraws ------------------------------------------ */

  var ui = null;
  function freshUi(id) {
    return { match: id, sel: null, teleport: false, targets: [], strikeTarget: null, aim: null, busy: null,
             question: "", noAttacks: false };
  }

  /* One move at a time: a second click while the first is on its way is dropped; the page is
     free again when the move is answered or a newer state arrives. */
  function send(ctx, move, then) {
    if (ui.busy) return;
    var mine = ui.busy = { version: current.data.version };
    ctx.submit(move).then(function () { if (then) then(); }, function () {})
      .then(function () { if (ui.busy === mine) ui.busy = null; redraw(); });
  }

  // A piece has gone where it was sent: it is no longer picked (unless another piece was
  // picked meanwhile: the answer may come after the new state and the next click).
  function afterMove() {
    var picked = ui.sel;
    return function () { if (ui.sel === picked) { ui.sel = null; ui.teleport = false; } };
  }

  // Forget choices the state no longer allows (the turn ended, a piece moved or died).
  function prune(v, o, me) {
    if (ui.sel) {
      var ok = ui.sel.slice(0, 2) === "p:" ? !!o.enter[ui.sel.slice(2)]
        : (v.units[ui.sel.slice(2)] !== undefined);
      if (!ok) { ui.sel = null; ui.teleport = false; }
    }
    ui.targets = ui.targets.filter(function (t) { return o.targets[t]; });
    if (!o.declares.length) ui.noAttacks = false;
    var targets = strikeTargets(o);
    if (ui.strikeTarget && targets.indexOf(ui.strikeTarget) < 0) ui.strikeTarget = null;
    if (!ui.strikeTarget && targets.length === 1) ui.strikeTarget = targets[0];
  }

  function strikeTargets(o) {
    var out = [];
    o.strikes.forEach(function (m) { if (out.indexOf(m.target) < 0) out.push(m.target); });
    return out;
  }

  function selDests(o) {
    if (!ui.sel) return null;
    var who = ui.sel.slice(2);
    return (ui.sel.slice(0, 2) === "p:" ? o.enter : o.move)[who] || null;
  }

  /* ---- the map ---------------------------------------------------------------------- */

  function drawMap(b, data, o, ctx) {
    var v = data.view, me = data.my_seat;
    var keys = Object.keys(b.terrain);
    var xs = [], ys = [];
    keys.concat(b.labels.map(function (l) { return l.at; })).forEach(function (k) {
      var c = centre(k); xs.push(c[0]); ys.push(c[1]);
    });
    var pad = SIZE * (b.labels.length ? 0.7 : 1.15);
    var minX = Math.min.apply(null, xs) - pad, minY = Math.min.apply(null, ys) - pad;
    var w = Math.max.apply(null, xs) - minX + pad, h = Math.max.apply(null, ys) - minY + pad;
    var map = svg("svg", { viewBox: [minX, minY, w, h].map(function (n) { return n.toFixed(1); }).join(" "),
                           class: "cam-map", role: "img", "aria-label": "The Camelot board", "data-testid": "map" });

    var entryOf = {};
    v.players.forEach(function (p) { if (p.entry) entryOf[p.entry] = p.seat; });
    var dests = selDests(o), walk = {}, tele = {};
    if (dests) { walk = ui.teleport ? {} : dests.walk; tele = ui.teleport ? dests.teleport : {}; }
    var choices = toSet(v.phase === "entry" ? v.entry_choices : []);

    var ground = svg("g", { class: "cam-ground" });
    keys.forEach(function (k) {
      var t = b.terrain[k], cls = "cam-hex t-" + t;
      if (b.edgeSet[k]) cls += " cam-edge";
      if (entryOf[k] !== undefined) cls += " cam-entry seat-" + entryOf[k];
      if (choices[k]) cls += " cam-choice";
      var move = o.entry[k] || walk[k] || tele[k];
      if (move) cls += " cam-dest" + (tele[k] ? " tele" : "");
      var poly = svg("polygon", { points: corners(k), class: cls, "data-hex": k });
      poly.appendChild(svg("title", {}, hexTitle(b, v, k, entryOf[k], ctx)));
      if (move) clickable(poly, destLabel(v, k, move, ctx, me), function () { send(ctx, move, afterMove()); });
      ground.appendChild(poly);
      decorate(ground, t, k);
      if (entryOf[k] !== undefined) {
        var c = centre(k);
        ground.appendChild(svg("text", { x: c[0], y: c[1] + SIZE * 0.8, class: "cam-entry-label seat-" + entryOf[k] }, "Entry"));
      }
    });
    map.appendChild(ground);
    map.appendChild(edgeLabels(b));

    // The blue diamond and the red diamonds stay drawn under whatever lies on them.
    map.appendChild(svg("polygon", { points: diamond(centre(b.excalibur), SIZE * 0.55), class: "cam-diamond blue" }));
    b.items.forEach(function (k) {
      map.appendChild(svg("polygon", { points: diamond(centre(k), SIZE * 0.5), class: "cam-diamond red" }));
    });

    Object.keys(v.items || {}).forEach(function (k) {
      var c = centre(k), list = v.items[k];
      list.forEach(function (id, i) {
        map.appendChild(itemIcon(id, v, [c[0] - SIZE * 0.42 + i * SIZE * 0.3, c[1] + SIZE * 0.38], 1, "lying"));
      });
    });

    drawLines(map, data, o);
    var moved = movedSinceMyTurn(data);
    drawTrails(map, v, moved);

    var frozen = toSet(v.frozen), declared = toSet(myDeclared(v, me));
    var marked = toSet(ui.targets), holders = v.tokens || [];
    Object.keys(v.units).forEach(function (uid) {
      map.appendChild(unitIcon(uid, v, o, ctx, me, frozen, declared, marked, holders, moved));
    });
    return map;
  }

  // The ranks' numbers beside both ends of each row, the files' letters beyond their ends
  // on the top and bottom edges (the board's data says what goes where).
  function edgeLabels(b) {
    var g = svg("g", { class: "cam-coords", "aria-hidden": "true" });
    b.labels.forEach(function (l) {
      var c = centre(l.at);
      g.appendChild(svg("text", { x: c[0].toFixed(1), y: (c[1] + 4).toFixed(1), class: "cam-coord " + l.kind,
                                  "data-label": l.text }, l.text));
    });
    return g;
  }

  /* The pieces other players moved since this player's last turn ended: unit -> the hex it
     first left in that time (null: brought on from the reserve). The server says which as of
     a move (data.moved_since_turn, read from the whole record, so a move older than the log's
     tail is still marked); the log lines that arrived after that move add to it, and the
     player's own end of turn since starts afresh. Pieces back where they were (a move taken
     back) are left out. A spectator has no turn of their own: nothing is marked. */
  function movedSinceMyTurn(data) {
    var me = data.my_seat, out = {};
    if (me === null || me === undefined || data.replay) return out;
    var since = data.moved_since_turn || { upto: 0, units: {} };
    var later = (data.log || []).filter(function (line) { return line.seq > since.upto; });
    var start = 0;
    later.forEach(function (line, i) {
      if (line.kind === "end_turn" && line.data && line.data.seat === me) start = i + 1;
    });
    if (start === 0) Object.keys(since.units || {}).forEach(function (uid) { out[uid] = since.units[uid]; });
    later.slice(start).forEach(function (line) {
      var d = line.data;
      if (line.kind !== "move" || !d || !d.unit || d.seat === me) return;
      if (!(d.unit in out)) out[d.unit] = d.from || null;
    });
    Object.keys(out).forEach(function (uid) {
      var u = data.view.units[uid];
      if (!u || u.hex === out[uid]) delete out[uid];
    });
    return out;
  }

  // A dotted line from where each of those pieces stood to where it stands now.
  function drawTrails(map, v, moved) {
    Object.keys(moved).forEach(function (uid) {
      if (!moved[uid]) return;
      var from = centre(moved[uid]), to = centre(v.units[uid].hex);
      map.appendChild(svg("circle", { cx: from[0], cy: from[1], r: SIZE * 0.22, class: "cam-trail-start" }));
      map.appendChild(svg("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: "cam-trail", "data-unit": uid }));
    });
  }

  function myDeclared(v, me) {
    var t = me !== null && me !== undefined && v.turns ? v.turns[String(me)] : null;
    return t ? t.declared || [] : [];
  }

  // Small marks so the four terrains differ by shape as well as colour.
  function decorate(g, t, k) {
    var c = centre(k), x = c[0], y = c[1], s = SIZE;
    if (t === "trees") {
      [[-0.3, 0.05], [0.28, -0.12], [0.02, 0.35]].forEach(function (p) {
        g.appendChild(svg("polygon", { class: "cam-tree", points: [
          (x + p[0] * s) + "," + (y + p[1] * s - s * 0.28), (x + p[0] * s + s * 0.2) + "," + (y + p[1] * s + s * 0.1),
          (x + p[0] * s - s * 0.2) + "," + (y + p[1] * s + s * 0.1)].join(" ") }));
      });
    } else if (t === "rocks") {
      g.appendChild(svg("polygon", { class: "cam-rock", points: [
        (x - s * 0.45) + "," + (y + s * 0.3), (x - s * 0.15) + "," + (y - s * 0.3), (x + s * 0.1) + "," + (y - s * 0.05),
        (x + s * 0.25) + "," + (y - s * 0.35), (x + s * 0.5) + "," + (y + s * 0.3)].join(" ") }));
    } else if (t === "water") {
      [-0.2, 0.2].forEach(function (dy) {
        var yy = y + dy * s;
        g.appendChild(svg("path", { class: "cam-wave", d: "M" + (x - s * 0.45) + "," + yy + " q" + (s * 0.22) + "," + (-s * 0.18) +
          " " + (s * 0.45) + ",0 t" + (s * 0.45) + ",0" }));
      });
    }
  }

  function hexTitle(b, v, k, owner, ctx) {
    var bits = [b.terrain[k]];
    if (k === b.excalibur) bits.push("Excalibur's space");
    if (b.itemSet[k]) bits.push("a red-diamond item space");
    if (b.edgeSet[k]) bits.push("edge space");
    if (owner !== undefined) bits.push(ctx.seatName(owner) + "'s Entry hex");
    (v.items[k] || []).forEach(function (id) { bits.push(itemName(id, v) + " lies here"); });
    return hexName(k) + ": " + bits.join(", ");
  }

  function destLabel(v, k, m, ctx, me) {
    if (m.type === "entry") return "Choose " + hexName(k) + " as your Entry hex";
    var mine = v.players.filter(function (p) { return p.seat === me; })[0];
    var where = mine && mine.entry === k ? "your Entry hex (" + hexName(k) + ")" : hexName(k);
    return (m.teleport ? "Teleport to " : (m.type === "enter" ? "Enter to " : "Move to ")) + where;
  }

  function clickable(node, label, act) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", label);
    node.addEventListener("click", act);
    node.addEventListener("keydown", function (e) {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();  // Space would scroll the page as well
      act();
    });
  }

  /* An item: Excalibur a small sword, gold a coin with its worth, the accoutrements a
     violet tile with their initial. ``where`` is "lying" (on a hex) or "carried". */
  function itemIcon(id, v, c, scale, where) {
    var s = SIZE * 0.32 * scale, x = c[0], y = c[1];
    var g = svg("g", { class: "cam-item " + where + " item-" + id.replace(/-\d+$/, ""), "data-item": id });
    if (id === "excalibur") {
      g.appendChild(svg("path", { class: "cam-sword", d:
        "M" + x + "," + (y - s * 1.5) + " L" + (x + s * 0.28) + "," + (y + s * 0.5) + " L" + (x + s * 0.8) + "," + (y + s * 0.5) +
        " L" + (x + s * 0.8) + "," + (y + s * 0.75) + " L" + (x + s * 0.2) + "," + (y + s * 0.75) + " L" + (x + s * 0.2) + "," + (y + s * 1.4) +
        " L" + (x - s * 0.2) + "," + (y + s * 1.4) + " L" + (x - s * 0.2) + "," + (y + s * 0.75) + " L" + (x - s * 0.8) + "," + (y + s * 0.75) +
        " L" + (x - s * 0.8) + "," + (y + s * 0.5) + " L" + (x - s * 0.28) + "," + (y + s * 0.5) + " Z" }));
    } else if (/^gold-/.test(id)) {
      g.appendChild(svg("circle", { cx: x, cy: y, r: s, class: "cam-coin" }));
      var worth = v.item_values && v.item_values[id];
      if (worth) g.appendChild(svg("text", { x: x, y: y + s * 0.4, class: "cam-coin-label", "font-size": (s * 1.15).toFixed(1) }, String(worth)));
    } else {
      g.appendChild(svg("rect", { x: x - s, y: y - s, width: 2 * s, height: 2 * s, rx: s * 0.3, class: "cam-regalia" }));
      g.appendChild(svg("text", { x: x, y: y + s * 0.45, class: "cam-regalia-label", "font-size": (s * 1.2).toFixed(1) },
                        id.charAt(0).toUpperCase()));
    }
    g.appendChild(svg("title", {}, itemName(id, v)));
    return g;
  }

  function unitIcon(uid, v, o, ctx, me, frozen, declared, marked, holders, moved) {
    var u = v.units[uid], c = centre(u.hex);
    var guardian = u.guardian || u.seat === null || u.seat === undefined;
    var cls = "cam-unit " + (guardian ? "guardian" : "seat-" + u.seat) + " type-" + u.type;
    var movable = !!o.move[uid] || !!o.drop[uid], targetable = !!o.targets[uid];
    var strikeable = o.strikes.some(function (m) { return m.target === uid; });
    if (movable || targetable || strikeable) cls += " can-act";
    if (ui.sel === "u:" + uid) cls += " selected";
    if (frozen[uid]) cls += " frozen";
    if (marked[uid] || declared[uid]) cls += " marked";
    if (ui.strikeTarget === uid) cls += " aimed";
    if (!guardian && holders.indexOf(u.seat) >= 0) cls += " holder";
    var lately = uid in moved;
    if (lately) cls += " moved";
    var g = svg("g", { class: cls, "data-unit": uid, "data-hex": u.hex });
    var r = SIZE * 0.66;
    if (lately) g.appendChild(svg("circle", { cx: c[0], cy: c[1], r: SIZE * 0.8, class: "cam-moved-ring" }));
    if (frozen[uid]) g.appendChild(svg("circle", { cx: c[0], cy: c[1], r: SIZE * 0.86, class: "cam-ice" }));
    if (marked[uid] || declared[uid]) {
      g.appendChild(svg("circle", { cx: c[0], cy: c[1], r: SIZE * 0.9, class: "cam-target" }));
    } else if (targetable && (ui.sel === null || ui.sel === "u:" + uid)) {
      g.appendChild(svg("circle", { cx: c[0], cy: c[1], r: SIZE * 0.9, class: "cam-target maybe" }));
    }
    g.appendChild(svg("circle", { cx: c[0], cy: c[1], r: r, class: "cam-body" }));
    var glyph = GLYPH[u.type] || "?";
    g.appendChild(svg("text", { x: c[0], y: c[1] + (glyph.length > 1 ? 3.6 : 4.4), class: "cam-glyph" + (glyph.length > 1 ? " two" : "") }, glyph));
    // The unit's number (Arthur 3, Guardian 1), the one the log and the panels use.
    if (guardian || SEVERAL[u.type]) {
      g.appendChild(svg("text", { x: c[0] + r * 0.62, y: c[1] + r * 0.95, class: "cam-number", "data-number": unitNumber(uid) }, unitNumber(uid)));
    }
    if (u.carry) g.appendChild(itemIcon(u.carry, v, [c[0] + r * 0.8, c[1] - r * 0.75], 0.85, "carried"));
    var words = cap(unitLabel(v, uid, ctx, me)) + " on " + hexName(u.hex);
    if (frozen[uid]) words += " (frozen: declared as a target)";
    if (lately) words += moved[uid] ? " (moved from " + hexName(moved[uid]) + " since your last turn)" : " (brought on since your last turn)";
    g.appendChild(svg("title", {}, words));
    if (movable || targetable || strikeable) {
      clickable(g, words, function () { clickUnit(uid, o); });
    }
    return g;
  }

  /* A click on a unit: an enemy that can only be declared against is marked or unmarked at
     once; a piece that can move (or a guardian) is selected; in the attack stage a declared
     target is aimed at. */
  function clickUnit(uid, o) {
    var strikeable = o.strikes.some(function (m) { return m.target === uid; });
    if (strikeable && !o.move[uid]) { ui.strikeTarget = uid; ui.aim = null; redraw(); return; }
    if (o.targets[uid] && !o.move[uid] && !o.drop[uid]) { toggleTarget(uid); return; }
    var key = "u:" + uid;
    ui.sel = ui.sel === key ? null : key;
    ui.teleport = false;
    redraw();
  }

  function toggleTarget(uid) {
    var i = ui.targets.indexOf(uid);
    if (i >= 0) ui.targets.splice(i, 1); else ui.targets.push(uid);
    redraw();
  }

  // Lines of sight while aiming: from each unit that can strike the aimed target (the one
  // pointed at on the list drawn bold), and Lancelot's sweep needs none.
  function drawLines(map, data, o) {
    var v = data.view;
    if (!ui.strikeTarget || !v.units[ui.strikeTarget]) return;
    var to = centre(v.units[ui.strikeTarget].hex);
    var seen = {};
    o.strikes.forEach(function (m) {
      if (m.target !== ui.strikeTarget || seen[m.unit] || !v.units[m.unit]) return;
      seen[m.unit] = true;
      var from = centre(v.units[m.unit].hex);
      var bold = ui.aim && ui.aim.unit === m.unit;
      map.appendChild(svg("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], "data-from": m.unit,
                                    class: "cam-los" + (bold ? " aiming" : "") }));
    });
  }

  /* ---- panels ------------------------------------------------------------------------- */

  function tokensStrip(data, ctx) {
    var v = data.view;
    var box = el("div", { class: "cam-tokens", "data-testid": "tokens" });
    if (v.phase !== "play") return null;
    (v.tokens || []).forEach(function (s) {
      var seat = (data.seats || [])[s] || {}, turn = v.turns[String(s)];
      var chip = el("div", { class: "cam-token seat-" + s + (s === data.my_seat ? " me" : ""), "data-seat": String(s) },
        el("span", { class: "cam-token-mark", title: "Holds a turn token", text: "\u2691 turn token" }),
        el("span", { class: "dot" }), el("b", { text: ctx.seatName(s) }),
        el("span", { class: "muted", text: (turn ? "turn " + turn.number + ", " + stageWords(turn) : "") }));
      if (seat.deadline && !v.paused) chip.appendChild(Grail.clock(seat.deadline));
      else if (v.paused) chip.appendChild(el("span", { class: "muted", text: "clock stopped" }));
      box.appendChild(chip);
    });
    return box;
  }

  // The first reading of a clock; the page (match.js) updates every .clock each second.
  function pausePanel(data, o, ctx) {
    var v = data.view;
    if (!v.paused) return null;
    var box = el("section", { class: "cam-paused", "data-testid": "paused" },
      el("p", {}, el("b", { text: "Paused by " + ctx.seatName(v.paused.by) + ": " }), "\u201c" + v.paused.question + "\u201d"));
    if (o.resume && !data.replay) {
      box.appendChild(el("button", { type: "button", class: "primary", "data-testid": "resume",
                                     onclick: function () { send(ctx, o.resume); } }, "Resume the game"));
    }
    return box;
  }

  function actionsPanel(data, o, ctx) {
    var v = data.view, me = data.my_seat, box = el("section", { class: "cam-panel cam-actions", "data-testid": "actions" });
    if (data.replay || me === null || me === undefined || v.phase === "over" || v.result) return null;
    var turn = v.turns && v.turns[String(me)];
    var holding = (v.tokens || []).indexOf(me) >= 0;

    if (hasKeys(o.entry)) box.appendChild(el("p", { class: "cam-hint", text: "Click a glowing edge space: your pieces enter the board there all game." }));

    // Declaring: enemy units to toggle, then one button.
    if (o.declares.length && !ui.noAttacks) {
      var d = el("div", { class: "cam-declare", "data-testid": "declare-panel" },
        el("h3", { text: "Declare attacks" }),
        el("p", { class: "cam-hint", text: "Click the enemy pieces you will attack this turn (red rings); they are frozen until your turn ends." }));
      var list = el("div", { class: "cam-chips" });
      Object.keys(o.targets).forEach(function (t) {
        var on = ui.targets.indexOf(t) >= 0;
        list.appendChild(el("button", { type: "button", class: "cam-chip" + (on ? " on" : ""), "data-testid": "target",
                                        "data-unit": t, "aria-pressed": String(on), onclick: function () { toggleTarget(t); } },
          unitLabel(v, t, ctx, me)));
      });
      d.appendChild(list);
      d.appendChild(attackPreview(data, ui.targets, ctx, true));
      var declare = el("button", { type: "button", class: "primary", "data-testid": "declare", onclick: function () {
        send(ctx, { type: "declare", targets: ui.targets.slice() }, function () { ui.targets = []; });
      } }, ui.targets.length ? "Declare attacks on " + ui.targets.length : "Declare attacks");
      declare.disabled = !ui.targets.length;
      var skip = el("button", { type: "button", "data-testid": "no-attacks", onclick: function () {
        var empty = o.declares.filter(function (m) { return !(m.targets || []).length; })[0];
        ui.targets = []; ui.noAttacks = true;
        if (empty) send(ctx, empty); else redraw();
      } }, "No attacks, move");
      d.appendChild(el("div", { class: "cam-row" }, declare, skip));
      box.appendChild(d);
    }

    var pool = poolTray(v, o, me);
    if (pool) box.appendChild(pool);
    var sel = selectedPanel(data, o, ctx);
    if (sel) box.appendChild(sel);
    else if (hasKeys(o.move) || hasKeys(o.enter)) {
      box.appendChild(el("p", { class: "cam-hint", text: "Click one of your pieces (on the board or in your reserve) to see where it can go." }));
    }
    var strike = strikePanel(data, o, ctx);
    if (strike) box.appendChild(strike);
    var asks = asksPanel(data, o, ctx);
    if (asks) box.appendChild(asks);

    if (turn && holding && turn.declared.length) {
      box.appendChild(el("div", { class: "cam-your-attacks" }, el("h3", { text: "Your attacks" }),
                         attackPreview(data, turn.declared, ctx, false)));
    }

    var row = el("div", { class: "cam-row" });
    if (v.takeback !== null && v.takeback !== undefined) {
      // The rules offer it until this player strikes, asks or ends the turn, or anyone else
      // moves; the mark makes a doubled click step back once (games/rules/takeback.py).
      row.appendChild(el("button", { type: "button", "data-testid": "take-back", title: "Undo your last move this turn",
                                     onclick: function () {
        send(ctx, { type: "takeback", mark: v.takeback }, function () { ui.noAttacks = false; ui.sel = null; ui.targets = []; });
      } }, "Take back"));
    }
    if (o.endTurn) {
      var left = turn && turn.declared.length && turn.stage !== "attack";
      row.appendChild(el("button", { type: "button", class: o.strikes.length || o.sweeps.length ? "" : "primary",
                                     "data-testid": "end-turn", title: left && v.options.failed_attack_penalty ? "Each declared target that survives costs you a unit" : "",
                                     onclick: function () { send(ctx, o.endTurn); } }, "End turn"));
    }
    if (row.childNodes.length) box.appendChild(row);
    if (!holding && v.phase === "play" && !v.paused) {
      box.insertBefore(el("p", { class: "muted", "data-testid": "waiting",
                                 text: "Waiting for a turn token: the holders' turns go on meanwhile." }), box.firstChild);
    }
    if (o.pause) box.appendChild(pauseForm(v, o, ctx, me));
    return box.childNodes.length ? box : null;
  }

  /* Each target's shields against the strength that can still reach it this turn, and the
     unit a failed attack costs (the engine's view.attack, counted by the rules' own reach and
     sight). ``planning``: before declaring (``targets`` are the ones marked so far). */
  function attackPreview(data, targets, ctx, planning) {
    var v = data.view, me = data.my_seat, preview = v.attack || {};
    var box = el("div", { class: "cam-preview", "data-testid": "attack-preview" });
    if (planning && !targets.length) {
      box.appendChild(el("p", { class: "muted", text: "Mark a target to see the strength you can bring against it." }));
      return box;
    }
    var losses = planning ? plannedLosses(preview, targets) : {};
    targets.forEach(function (t) {
      var p = preview[t];
      if (!p || !v.units[t]) return;
      var shields = p.shields + " shield" + (p.shields === 1 ? "" : "s");
      var line = el("p", { class: "cam-preview-line", "data-unit": t });
      var now = p.struck + p.lent, text;
      if (planning) {
        var parts = [];
        if (p.ready) parts.push(p.ready + " from where your units stand");
        if (p.coming) parts.push(p.coming + " more that need a move");
        if (p.lent) parts.push(p.lent + " lent");
        text = cap(unitLabel(v, t, ctx, me)) + ": " + shields + " against " + p.reach + " that can still reach it this turn" +
          (parts.length ? " (" + parts.join(", ") + ")" : "") +
          (p.reach > p.shields ? " \u2014 enough to kill it if all of them strike it." : " \u2014 not enough to kill it.");
      } else {
        text = cap(unitLabel(v, t, ctx, me)) + ": " + now + " struck" + (p.lent ? " (" + p.lent + " of it lent)" : "") +
          " against " + shields;
        if (now > p.shields) text += " \u2014 it falls when you end your turn.";
        else if (p.reach > now) text += " \u2014 not enough yet; " + (p.reach - now) + " more can still reach it.";
        else text += " \u2014 not enough, and nothing more can reach it.";
      }
      line.appendChild(el("span", { text: text }));
      var who = contributorsList(v, p, ctx, me);
      if (who) line.appendChild(who);
      var cost = planning ? losses[t] : p.penalty;
      if (cost) {
        var lose = unitName(v, cost, ctx, me);
        var fails = !planning && now <= p.shields;
        // Not its nearest unit: a nearer one goes to another failed attack declared before it.
        var shifted = p.penalties && p.penalties.length && cost !== p.penalties[0];
        line.appendChild(el("span", { class: "cam-penalty" + (fails ? " due" : ""), "data-testid": "penalty",
          text: (fails ? " If you end your turn now, this attack fails and you lose " : " If this attack fails, you lose ") +
                lose + " (your unit nearest to it" + (shifted ? " that your other failed attacks leave" : "") +
                (planning ? " as your units stand now" : "") + ")." }));
      }
      box.appendChild(line);
    });
    if (planning && targets.length > 1) {
      box.appendChild(el("p", { class: "muted", text: "Each of your units strikes one target a turn." }));
    }
    return box;
  }

  /* Which pieces can still add strength against one target, and what each needs (the
     engine's view.attack[t].contributors, strongest first): "your Merlin's Fireball (2), if
     he teleports into reach (his Teleport, once a game)". */
  var PRONOUN = { merlin: "he", morgan: "she" };
  var NEEDS = {
    ready: function () { return "from where it stands now"; },
    walk: function (c) { return "if " + (PRONOUN[c.piece] || "it") + " moves up (one of your moves)"; },
    enter: function (c) { return c.count > 1 ? "if they enter from your reserve (one move each)" : "if it enters from your reserve (one of your moves)"; },
    teleport: function (c) { return "if " + (PRONOUN[c.piece] || "it") + " teleports into reach (a move, and the Teleport spell, once a game)"; },
    use: function () { return "if you use it (a Guardian costs one of your moves)"; },
    lent: function () { return "lent by its owner: it counts when your turn ends if it still reaches"; }
  };

  function contributorWords(v, c, ctx, me) {
    var what = MODE[c.mode] + " (" + c.value + (c.count > 1 ? " each" : "") + ")";
    var who = c.unit ? cap(unitName(v, c.unit, ctx, me)) + "'s " + what
      : (c.count > 1 ? c.count + " " + PLURAL[c.piece] : "A " + NAME[c.piece]) + " from your reserve: " + what;
    return who + ", " + (NEEDS[c.how] || function () { return c.how; })(c) + ".";
  }

  function contributorsList(v, p, ctx, me) {
    var list = p.contributors || [];
    if (!list.length) return null;
    var box = el("ul", { class: "cam-contributors", "data-testid": "contributors" });
    list.forEach(function (c) {
      box.appendChild(el("li", { "data-testid": "contributor", "data-how": c.how, "data-unit": c.unit || "",
                                 "data-piece": c.piece, text: contributorWords(v, c, ctx, me) }));
    });
    var movers = list.filter(function (c) { return c.how !== "ready" && c.how !== "lent"; })
      .reduce(function (n, c) { return n + (c.count || 1); }, 0);
    if (movers > p.moves_left) {
      box.appendChild(el("li", { class: "muted", "data-testid": "moves-left",
        text: "Only " + p.moves_left + " of those that need a move can come: you have " + p.moves_left +
              (p.moves_left === 1 ? " move" : " moves") + " left this turn." }));
    }
    return box;
  }

  /* Before declaring: the unit each marked target would cost if every marked attack failed.
     The engine ranks each target's units (view.attack[t].penalties, nearest first, the order
     combat.turn_end_losses takes them); the turn loses, target by target in the order
     marked (the order declared), the first of its list not already lost. */
  function plannedLosses(preview, targets) {
    var lost = {}, taken = {};
    targets.forEach(function (t) {
      var ranked = (preview[t] && preview[t].penalties) || [];
      for (var i = 0; i < ranked.length; i++) {
        if (!taken[ranked[i]]) { lost[t] = ranked[i]; taken[ranked[i]] = true; break; }
      }
    });
    return lost;
  }

  function poolTray(v, o, me) {
    var p = v.players.filter(function (x) { return x.seat === me; })[0];
    if (!p || v.phase !== "play") return null;
    var tray = el("div", { class: "cam-pool", "data-testid": "pool" }, el("span", { class: "cam-label", text: "Reserve: " }));
    PIECES.forEach(function (type) {
      var n = p.pool[type] || 0;
      var can = !!o.enter[type];
      var on = ui.sel === "p:" + type;
      var b = el("button", { type: "button", class: "cam-piece seat-" + me + (on ? " selected" : "") + (can ? " can" : ""),
                             "data-piece": type, "aria-pressed": String(on), title: n + " " + (n === 1 ? NAME[type] : PLURAL[type]) + " in reserve",
                             onclick: function () { ui.sel = on ? null : "p:" + type; ui.teleport = false; redraw(); } },
        el("span", { class: "cam-piece-glyph", text: GLYPH[type] }), " \u00d7" + n);
      b.disabled = !can;
      tray.appendChild(b);
    });
    return tray;
  }

  function selectedPanel(data, o, ctx) {
    if (!ui.sel) return null;
    var v = data.view, me = data.my_seat, fromPool = ui.sel.slice(0, 2) === "p:", who = ui.sel.slice(2);
    var name = fromPool ? "a " + NAME[who] + " from your reserve" : unitName(v, who, ctx, me);
    var box = el("div", { class: "cam-selected", "data-testid": "selected" }, el("h3", { text: cap(name) }));
    var dests = selDests(o);
    var walks = dests ? Object.keys(dests.walk).length : 0, teles = dests ? Object.keys(dests.teleport).length : 0;
    if (ui.teleport) box.appendChild(el("p", { class: "cam-hint", text: "Click a violet hex: Merlin teleports there (once a game)." }));
    else if (walks) box.appendChild(el("p", { class: "cam-hint", text: "Click a glowing hex to " + (fromPool ? "enter there" : "move there") + " (" + walks + " choices)." }));
    else box.appendChild(el("p", { class: "cam-hint", text: fromPool ? "It cannot enter now." : "It cannot move now." }));
    if (teles) {
      box.appendChild(el("button", { type: "button", "data-testid": "teleport", "aria-pressed": String(ui.teleport),
                                     class: ui.teleport ? "on" : "", onclick: function () { ui.teleport = !ui.teleport; redraw(); } },
        ui.teleport ? "Walk instead" : "Use Teleport (" + teles + " places)"));
    }
    if (!fromPool && o.drop[who]) {
      var u = v.units[who];
      box.appendChild(el("button", { type: "button", "data-testid": "drop", onclick: function () { send(ctx, o.drop[who]); } },
        "Drop " + itemName(u.carry, v) + " (then move in full)"));
    }
    if (!fromPool && o.targets[who]) {
      var on = ui.targets.indexOf(who) >= 0;
      box.appendChild(el("button", { type: "button", "data-testid": "toggle-target", onclick: function () { toggleTarget(who); } },
        on ? "Do not attack it" : "Mark it as a target"));
    }
    box.appendChild(el("button", { type: "button", class: "link", onclick: function () { ui.sel = null; ui.teleport = false; redraw(); } }, "Cancel"));
    return box;
  }

  // Our own words start with a capital; a username stays as its owner wrote it.
  function cap(s) { return /^(your|a) /.test(s) ? s.charAt(0).toUpperCase() + s.slice(1) : s; }

  function strikeLabel(v, m, ctx, me) {
    var u = v.units[m.unit] || {};
    var value = m.value !== undefined ? m.value : { melee: u.type === "lancelot" ? 2 : 1, fireball: 2, death_touch: 3 }[m.mode] || 1;
    return cap(unitName(v, m.unit, ctx, me)) + ": " + MODE[m.mode] + " (" + value + ")";
  }

  function strikePanel(data, o, ctx) {
    var v = data.view, me = data.my_seat, turn = v.turns[String(me)];
    var made = turn && turn.strikes || [];
    if (!o.strikes.length && !o.sweeps.length && !made.length) return null;
    var box = el("div", { class: "cam-strike", "data-testid": "strike-panel" }, el("h3", { text: "Strike" }));
    var targets = strikeTargets(o);
    if (targets.length) {
      var pick = el("div", { class: "cam-chips" }, el("span", { class: "cam-label", text: "Target: " }));
      targets.forEach(function (t) {
        var on = ui.strikeTarget === t;
        pick.appendChild(el("button", { type: "button", class: "cam-chip" + (on ? " on" : ""), "data-testid": "strike-target",
                                        "data-unit": t, "aria-pressed": String(on),
                                        onclick: function () { ui.strikeTarget = t; ui.aim = null; redraw(); } }, unitLabel(v, t, ctx, me)));
      });
      box.appendChild(pick);
    }
    if (ui.strikeTarget) {
      var u = v.units[ui.strikeTarget];
      var already = (turn && turn.strikes || []).filter(function (s) { return s.target === ui.strikeTarget; })
        .reduce(function (n, s) { return n + (s.value || 0); }, 0);
      box.appendChild(el("p", { class: "cam-hint", text: "The lines show who can reach " + unitName(v, ui.strikeTarget, ctx, me) +
        (already ? " (" + already + " struck so far)" : "") + ". It falls if the total beats its shields" +
        (u ? " (" + ({ lancelot: 2, morgan: 2 }[u.type] || 1) + ")." : ".") }));
      var list = el("div", { class: "cam-strikes" });
      o.strikes.filter(function (m) { return m.target === ui.strikeTarget; }).forEach(function (m) {
        var b = el("button", { type: "button", class: "primary", "data-testid": "strike", "data-unit": m.unit, "data-mode": m.mode,
                               onclick: function () { send(ctx, m, function () { ui.aim = null; }); } }, strikeLabel(v, m, ctx, me));
        // Pointing at a strike draws its line of sight bold (redrawn on the map only).
        function aim(on) { ui.aim = on ? m : null; highlightLine(on ? m.unit : null); }
        b.addEventListener("mouseenter", function () { aim(true); });
        b.addEventListener("focus", function () { aim(true); });
        b.addEventListener("mouseleave", function () { aim(false); });
        b.addEventListener("blur", function () { aim(false); });
        list.appendChild(b);
      });
      box.appendChild(list);
    }
    o.sweeps.forEach(function (m) {
      box.appendChild(el("button", { type: "button", "data-testid": "sweep", "data-unit": m.unit, onclick: function () { send(ctx, m); } },
        cap(unitName(v, m.unit, ctx, me)) + ": sweeping blow (1 to every declared target beside him)"));
    });
    if (made.length) {
      box.appendChild(el("p", { class: "muted", "data-testid": "struck", text: "Struck: " + made.map(function (s) {
        return cap(unitName(v, s.unit, ctx, me)) + " " + MODE[s.mode] + (s.target ? " at " + unitName(v, s.target, ctx, me) : "") +
               " (" + s.value + ")";
      }).join("; ") + ". End your turn to resolve." }));
    }
    return box;
  }

  function highlightLine(unit) {
    if (!current) return;
    current.root.querySelectorAll(".cam-los").forEach(function (l) {
      l.classList.toggle("aiming", l.getAttribute("data-from") === unit);
    });
  }

  function asksPanel(data, o, ctx) {
    if (!o.askAlly.length && !o.askDisengage.length) return null;
    var v = data.view, me = data.my_seat;
    var box = el("details", { class: "cam-asks", "data-testid": "asks" }, el("summary", { text: "Ask another player" }));
    o.askAlly.forEach(function (m) {
      box.appendChild(el("button", { type: "button", "data-testid": "ask-ally", "data-seat": String(m.seat), "data-unit": m.target,
                                     onclick: function () { send(ctx, m); } },
        "Ask " + ctx.seatName(m.seat) + " to join the attack on " + unitLabel(v, m.target, ctx, me)));
    });
    o.askDisengage.forEach(function (m) {
      box.appendChild(el("button", { type: "button", "data-testid": "ask-disengage", "data-seat": String(m.seat),
                                     onclick: function () { send(ctx, m); } },
        "Ask " + ctx.seatName(m.seat) + " to let your pieces disengage"));
    });
    var turn = v.turns[String(me)];
    if (turn && turn.permissions && turn.permissions.length) {
      box.appendChild(el("p", { class: "muted", text: "Allowed to disengage this turn from: " +
        turn.permissions.map(function (s) { return ctx.seatName(s); }).join(", ") + "." }));
      box.open = true;
    }
    return box;
  }

  function pauseForm(v, o, ctx, me) {
    var p = v.players.filter(function (x) { return x.seat === me; })[0];
    var input = el("input", { type: "text", maxlength: String(MAX_QUESTION), placeholder: "Your question for the table",
                              "aria-label": "Your question", "data-testid": "question" });
    input.value = ui.question;
    input.addEventListener("input", function () { ui.question = input.value; });
    var form = el("form", { class: "cam-pause" }, input,
      el("button", { type: "submit", "data-testid": "pause" }, "Pause" + (p ? " (" + p.pauses_left + " left)" : "")));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      send(ctx, { type: "pause", question: input.value.trim() }, function () { ui.question = ""; });
    });
    return el("details", { class: "cam-pause-box" }, el("summary", { text: "Stop the clocks for a question" }), form);
  }

  function playersPanel(data, ctx) {
    var v = data.view, me = data.my_seat;
    var list = el("ul", { class: "cam-players", "data-testid": "players" });
    var order = (v.order && v.order.length ? v.order : v.players.map(function (p) { return p.seat; }));
    var bySeat = {};
    v.players.forEach(function (p) { bySeat[p.seat] = p; });
    order.forEach(function (s) {
      var p = bySeat[s];
      if (!p) return;
      var holds = !v.result && (v.tokens || []).indexOf(s) >= 0;
      var li = el("li", { class: "cam-player seat-" + s + (holds ? " holder" : "") + (p.active === false ? " gone" : ""), "data-seat": String(s) });
      var head = el("div", { class: "cam-who" }, el("span", { class: "dot" }), el("b", { text: ctx.seatName(s) }));
      if (s === me) head.appendChild(el("span", { class: "you", text: "you" }));
      if (holds) head.appendChild(el("span", { class: "cam-token-mark", "data-testid": "token-mark", text: "\u2691 holds a turn token" }));
      if (p.active === false) head.appendChild(el("span", { class: "muted", text: "left the game" }));
      li.appendChild(head);
      var bits = [];
      bits.push(p.entry ? "Entry " + hexName(p.entry) : "no Entry hex yet");
      bits.push("reserve " + PIECES.map(function (t) { return (p.pool[t] || 0) + GLYPH[t]; }).join(" "));
      var lost = PIECES.filter(function (t) { return p.lost && p.lost[t]; }).map(function (t) { return p.lost[t] + GLYPH[t]; });
      if (lost.length) bits.push("lost " + lost.join(" "));
      var spells = Object.keys(SPELL).filter(function (k) { return p.spells && p.spells[k]; }).map(function (k) { return SPELL[k]; });
      bits.push(spells.length ? "spells: " + spells.join(", ") : "no spells left");
      var banked = (p.banked && p.banked.items || []).map(function (id) { return itemName(id, v); });
      if (p.banked && p.banked.gold) banked.push(p.banked.gold + " gold");
      if (banked.length) bits.push("home: " + banked.join(", "));
      li.appendChild(el("p", { class: "cam-facts", text: bits.join(" \u00b7 ") }));
      list.appendChild(li);
    });
    return el("section", { class: "cam-panel" }, el("h3", { text: "Players" }), list);
  }

  function combatPanel(data, ctx) {
    var v = data.view, me = data.my_seat;
    var OUTCOME = { killed: "killed", held: "it held", lapsed: "no strike, the attack lapsed", gone: "it was already gone" };
    var lines = (v.last_combat || []).map(function (c) {
      if (typeof c === "string") return c;
      if (!c || !c.target) return "";
      var text = cap(unitName(v, c.target, ctx, me)) + ": ";
      if (c.total !== undefined) text += c.total + " against " + c.shields + " shield" + (c.shields === 1 ? "" : "s") + ", ";
      text += OUTCOME[c.outcome] || c.outcome;
      if (c.penalty) text += "; the failed attack costs " + unitName(v, c.penalty, ctx, me);
      return text + ".";
    }).filter(Boolean);
    if (!lines.length) return null;
    var box = el("section", { class: "cam-panel cam-combat", "data-testid": "combat" }, el("h3", { text: "Last combat" }));
    lines.forEach(function (t) { box.appendChild(el("p", { text: ctx.withNames(t) })); });
    return box;
  }

  function legend() {
    var box = el("details", { class: "cam-legend" }, el("summary", { text: "Key" }));
    box.appendChild(el("p", { class: "muted", text: "Grass (light green), trees (dark green: block sight, may be entered), rocks " +
      "(grey: block sight, impassable), water (blue: impassable, sight passes). Blue diamond: Excalibur's space; red diamonds: " +
      "item spaces; the outer ring: edge spaces. Pieces: A Arthur, G Galahad, L Lancelot, Me Merlin, Mo Morgan; grey with a " +
      "gold rim: a Guardian. A dashed blue ring: frozen (declared as a target); a red ring: a declared target; an orange " +
      "halo: moved by another player since your last turn (a dotted line from where it stood). Hexes are named by the " +
      "letter of their file and the number of their row, as the labels round the edge read (h8 is Excalibur's space)." }));
    return box;
  }

  /* ---- drawing ------------------------------------------------------------------------ */

  var current = null;   // what the table was last drawn from: {root, data, ctx, key}

  function redraw() {
    if (!current) return;
    var b = boards[current.data.view.board];
    if (!b) current.root.textContent = boardError ? "Could not load the board: " + boardError : "Setting up the board\u2026";
    else draw(current.root, current.data, current.ctx, b);
  }

  // The control the keyboard's focus is on, told by its data attributes, so a redraw puts the
  // focus back on the same control (a new element) instead of at the top of the page.
  var FOCUS_KEYS = ["data-testid", "data-hex", "data-unit", "data-piece", "data-seat", "data-mode"];
  function focusedKey(root) {
    var n = document.activeElement;
    if (!n || n === document.body || !root.contains(n)) return null;
    var sel = n.tagName.toLowerCase() + FOCUS_KEYS.filter(function (k) { return n.hasAttribute(k); }).map(function (k) {
      return "[" + k + "=\"" + String(n.getAttribute(k)).replace(/["\\]/g, "\\$&") + "\"]";
    }).join("");
    return sel.indexOf("[") > 0 ? sel : null;
  }

  function draw(root, data, ctx, b) {
    var o = index(data.replay ? [] : data.legal_moves || []);
    prune(data.view, o, data.my_seat);
    var scroll = window.scrollY, focused = focusedKey(root);
    root.textContent = "";
    var wrap = el("div", { class: "cam" });
    wrap.appendChild(el("p", { class: "cam-status", "data-testid": "status", text: statusLine(data, ctx) }));
    var strip = tokensStrip(data, ctx);
    if (strip) wrap.appendChild(strip);
    var paused = pausePanel(data, o, ctx);
    if (paused) wrap.appendChild(paused);
    var layout = el("div", { class: "cam-layout" });
    layout.appendChild(el("div", { class: "cam-map-wrap" }, drawMap(b, data, o, ctx), legend()));
    var side = el("div", { class: "cam-side" });
    var actions = actionsPanel(data, o, ctx);
    if (actions) side.appendChild(actions);
    var combat = combatPanel(data, ctx);
    if (combat) side.appendChild(combat);
    side.appendChild(playersPanel(data, ctx));
    layout.appendChild(side);
    wrap.appendChild(layout);
    root.appendChild(wrap);
    if (focused) {
      var again = root.querySelector(focused);
      if (again) again.focus({ preventScroll: true });
    }
    if (window.scrollY !== scroll) window.scrollTo(0, scroll);  // a redraw never jumps the page
  }

  Grail.registerRenderer("camelot", {
    render: function (root, data, ctx) {
      // The same state comes twice after your own move (the push and the reply): redrawing
      // an unchanged table would drop a click in progress, so it is left as it is.
      var key = JSON.stringify([data.id, data.my_seat, data.view, data.legal_moves, data.status, data.replay,
                                (data.seats || []).map(function (s) { return [s.username, s.deadline]; })]);
      if (ui && ui.busy && data.version > ui.busy.version) ui.busy = null;
      if (current && current.root === root && current.key === key && root.firstChild) return;
      if (!ui || ui.match !== data.id) ui = freshUi(data.id);
      current = { root: root, data: data, ctx: ctx, key: key };
      var name = data.view.board || "standard";
      if (boards[name]) draw(root, data, ctx, boards[name]);
      else { redraw(); withBoard(name, redraw); }
    },
    // The decision bar's options: a unit lent to an ally's attack is named as the board names
    // it ("Your Galahad 2"), not by the rules' stored words and coordinates ("tim's Galahad at -3,3").
    optionLabel: function (dec, option, data, ctx) {
      var v = data.view;
      if (!v || !v.units || typeof option.value !== "string" || !v.units[option.value]) return null;
      return cap(unitLabel(v, option.value, ctx, data.my_seat));
    }
  });
})();
