/* Monty Python Fluxx: the table in the browser.

   Card faces are SVG drawn from the deck's data (GET /api/fluxx/cards/, fetched once):
   the type's colour, the name, our own words, and for a Goal the cards it needs. Every
   control is built from data.legal_moves; the choices inside Actions and the out-of-turn
   discards are the shared decision bar's (static/js/match.js, drawDecisions). Any card on
   the table opens a large face with its text; a card from your hand opens with its plays.
   Text goes in with textContent only: usernames, songs and quotes are user input. */
(function () {
  "use strict";
  var el = Grail.el;
  var SVG = "http://www.w3.org/2000/svg";
  var CARD_W = 120, CARD_H = 168;
  var TYPE_LABEL = { basic: "Basic Rules", rule: "New Rule", goal: "Goal", keeper: "Keeper",
                     creeper: "Creeper", action: "Action" };
  var MAX_WORDS = 200;  // the engine's limit on a song, an accent or a quote

  /* ---- the deck's data ----------------------------------------------------------- */

  var deck = null, deckLoading = false, deckError = null, afterLoad = [];

  function withDeck(then) {
    if (deck) { then(); return; }
    afterLoad.push(then);
    if (deckLoading) return;
    deckLoading = true;
    Grail.api("GET", "/api/fluxx/cards/").then(function (d) {
      deck = d.cards; deckError = null;
    }, function (err) { deckError = err.message; }).then(function () {
      deckLoading = false;
      var waiting = afterLoad; afterLoad = [];
      waiting.forEach(function (f) { f(); });
    });
  }

  function card(id) { return deck[id] || { id: id, type: "action", name: id, text: "", keywords: [] }; }

  /* ---- SVG faces ----------------------------------------------------------------- */

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text != null) node.textContent = text;
    return node;
  }

  // Words into lines of at most `width` characters (a word longer than that gets its own line).
  function wrap(text, width) {
    var lines = [], line = "";
    String(text).split(/\s+/).forEach(function (word) {
      if (!word) return;
      if (line && (line + " " + word).length > width) { lines.push(line); line = word; }
      else line = line ? line + " " + word : word;
    });
    if (line) lines.push(line);
    return lines;
  }

  // How many characters of Georgia at `size` fit in `room` units (a measured average, bold a little wider).
  function fits(size, room, bold) { return Math.floor(room / (size * (bold ? 0.56 : 0.5))); }

  function textLines(node, lines, x, y, size, cls, anchor) {
    lines.forEach(function (line, i) {
      node.appendChild(svg("text", { x: x, y: (y + i * size * 1.15).toFixed(1), class: cls, "font-size": size,
                                     "text-anchor": anchor || "middle" }, line));
    });
    return y + lines.length * size * 1.15;
  }

  /* A card face: the type's band, the name, a Goal's needs, the card's text. A small face
     (hand, goals, rules) has the name large and as much text as fits; a small Goal only its
     needs. The large face (the card opened) has it all. */
  function face(id, large) {
    var c = card(id);
    var node = svg("svg", { viewBox: "0 0 " + CARD_W + " " + CARD_H, class: "fx-face fx-" + c.type + (large ? " large" : ""),
                            role: "img", "aria-label": TYPE_LABEL[c.type] + ": " + c.name, "data-card": id });
    node.appendChild(svg("rect", { x: 1.5, y: 1.5, width: CARD_W - 3, height: CARD_H - 3, rx: 9, class: "fx-bg" }));
    node.appendChild(svg("rect", { x: 1.5, y: 1.5, width: CARD_W - 3, height: 22, rx: 9, class: "fx-band" }));
    node.appendChild(svg("rect", { x: 1.5, y: 12, width: CARD_W - 3, height: 11.5, class: "fx-band" }));
    node.appendChild(svg("text", { x: CARD_W / 2, y: 17, class: "fx-type", "text-anchor": "middle" },
                         TYPE_LABEL[c.type].toUpperCase()));
    // The name as large as its lines allow (three lines at most at the first size; the
    // longest Goal, "Strange Women Lying in Ponds...", takes five at the last).
    var sizes = large ? [13, 11, 9.5] : [16, 13, 11, 9.5], size, name;
    for (var i = 0; i < sizes.length; i++) {
      size = sizes[i]; name = wrap(c.name, fits(size, 108, true));
      if (name.length * size * 1.15 <= (large ? 48 : 56)) break;
    }
    var y = textLines(node, name, CARD_W / 2, 30 + size, size, "fx-name");
    if (c.type === "goal") y = goalNeeds(node, c, y + 4, large);
    // A small Goal shows only what it needs; every other face its text, as much as fits
    // (the opened card shows all of it, larger).
    if (large || c.type !== "goal") {
      var body = large ? 8.8 : 9.6;
      node.appendChild(svg("line", { x1: 14, x2: CARD_W - 14, y1: y + 1, y2: y + 1, class: "fx-rule-line" }));
      var room = Math.floor((CARD_H - 6 - (y + 4)) / (body * 1.15));
      var text = wrap(c.text, fits(body, 108));
      // Cut to the lines that fit (none on a Goal whose name and needs fill it: the opened
      // card prints the text in full beside the face).
      if (text.length > room) { text = text.slice(0, Math.max(room, 0)); if (text.length) text[text.length - 1] += "\u2026"; }
      textLines(node, text, CARD_W / 2, y + body + 4, body, "fx-text");
    }
    node.appendChild(svg("title", {}, c.name + (c.text ? ": " + c.text : "")));
    return node;
  }

  // A Goal's needs: one line per card you must have ("+" between), then "someone else",
  // "either ... or ..." and "any N": as large as the room left under the name allows.
  function goalNeeds(node, c, y, large) {
    var sizes = large ? [10, 9, 8.5] : [11.5, 10.5, 9.5, 8.5], size, blocks;
    for (var i = 0; i < sizes.length; i++) {
      size = sizes[i];
      blocks = (c.needs || []).map(function (need, j) { return wrap((j ? "+ " : "") + need.text, fits(size, 108)); });
      // each block takes its size and its lines (textLines); the last line ends at its descent
      var bottom = blocks.reduce(function (h, lines) { return h + size + lines.length * size * 1.15; }, y) - size * 0.85;
      if (bottom <= CARD_H - 5) break;
    }
    (c.needs || []).forEach(function (need, j) {
      y = textLines(node, blocks[j], CARD_W / 2, y + size, size, "fx-need" + (need.others ? " others" : ""));
    });
    return y + 4;
  }

  /* ---- the pieces of the table --------------------------------------------------- */

  // What the player is doing between redraws (a redraw comes with every update).
  var ui = { match: null, open: null, fromHand: false, busy: null, fields: {} };

  /* One move at a time: a second click while the first is on its way is dropped. The page
     is free again when the move is answered or a newer state arrives, whichever comes first
     (the reply waits for a reload that may come after the next state: waiting for it would
     swallow the next click). A played card leaves the hand, which closes it (see draw). */
  function send(ctx, move, then) {
    if (ui.busy) return;
    var mine = ui.busy = { version: current.data.version };
    ctx.submit(move).then(function () { if (then) then(); }, function () {})
      .then(function () { if (ui.busy === mine) ui.busy = null; redraw(); });
  }

  function openCard(id, fromHand) { ui.open = id; ui.fromHand = fromHand; ui.focus = true; redraw(); }

  function byType(moves, type) { return moves.filter(function (m) { return m.type === type; }); }

  function ownerOf(v, id) {
    for (var s = 0; s < v.players; s++) {
      if (v.keepers[s].indexOf(id) >= 0 || v.creepers[s].indexOf(id) >= 0) return s;
    }
    return null;
  }

  // A face that opens the card when clicked (a button, so keyboards reach it too).
  function faceButton(id, cls, extra) {
    var b = el("button", { type: "button", class: "fx-facebtn " + (cls || ""), "data-card": id,
                           "aria-label": "Look at " + card(id).name });
    Object.keys(extra || {}).forEach(function (k) { b.setAttribute(k, extra[k]); });
    b.appendChild(face(id, false));
    b.addEventListener("click", function () { openCard(id, false); });
    return b;
  }

  // A Keeper or Creeper on the table: a coloured label with its name; opens the card.
  function chip(id) {
    var c = card(id);
    return el("button", { type: "button", class: "fx-chip fx-" + c.type, "data-card": id, title: c.text,
                          onclick: function () { openCard(id, false); } },
      c.name + (c.power ? " \u2605" : ""));
  }

  function statusLine(data, ctx) {
    var v = data.view, me = data.my_seat;
    if (v.result || (!data.replay && data.status && data.status !== "active")) {
      if (!data.replay) return "The game is over.";  // who won and why: in the banner above (match.js)
      return ctx.withNames(v.result.reason);
    }
    var t = v.turn, mine = me !== null && me !== undefined;
    var open = (v.decisions || []).filter(function (d) { return !d.done; });
    if (open.length) {
      if (open.some(function (d) { return d.mine; })) return "You have a choice to make: see the bar above the table.";
      var who = [];
      open.forEach(function (d) { var n = ctx.seatName(d.seat); if (who.indexOf(n) < 0) who.push(n); });
      return "Waiting for " + who.join(" and ") + " to choose.";
    }
    var left = t.plays_left === 1 ? "1 more card to play" : t.plays_left + " more cards to play";
    if (mine && t.seat === me) {
      return "Your turn: " + (t.plays_left ? left + "." : "your plays are done.");
    }
    return ctx.seatName(t.seat) + "'s turn (turn " + t.number + "): " + (t.plays_left ? left + "." : "plays done.");
  }

  // The effective numbers, each with the card that sets it and why, said once ("Play 5: Play 3
  // (One, Two, Five! makes it 5)", "Keeper limit 2" alone): the rules' label and why (current_rules.explain).
  function rulesPanel(v, ctx) {
    var box = el("section", { class: "fx-panel fx-rules", "data-testid": "rules" }, el("h3", { text: "Rules in play" }));
    var e = v.effective, list = el("ul", { class: "fx-numbers" });
    function row(key, none) {
      var entry = e[key];
      var li = el("li", { "data-rule": key }, el("b", { text: entry ? entry.label : none }));
      if (entry && entry.why) li.appendChild(el("span", { class: "why", text: entry.why }));
      list.appendChild(li);
    }
    row("draw"); row("play"); row("hand_limit", "No hand limit"); row("keeper_limit", "No Keeper limit");
    row("goal_limit");
    box.appendChild(list);
    var faces = el("div", { class: "fx-row fx-rule-cards" }, faceButton(v.basic_rules, "small"));
    v.rules.forEach(function (id) { faces.appendChild(faceButton(id, "small")); });
    box.appendChild(faces);
    if (!v.rules.length) box.appendChild(el("p", { class: "muted", text: "No New Rules yet: the Basic Rules hold." }));
    return box;
  }

  function goalsPanel(v, data) {
    var box = el("section", { class: "fx-panel fx-goals", "data-testid": "goals" },
      el("h3", { text: v.goals.length > 1 ? "Goals (meet either to win)" : "Goal" }));
    if (!v.goals.length) {
      box.appendChild(el("p", { class: "muted", text: "No Goal yet: the first Goal played sets what wins." }));
      return box;
    }
    var row = el("div", { class: "fx-row" });
    var me = data.my_seat;
    v.goals.forEach(function (id) {
      var item = el("div", { class: "fx-goal" }, faceButton(id, "goal"));
      // What the Goal needs in plain words (the face has room for its cards only).
      if (card(id).summary) item.appendChild(el("p", { class: "fx-goal-summary", "data-testid": "goal-summary",
                                                       text: card(id).summary }));
      if (me !== null && me !== undefined && v.keepers[me]) item.appendChild(goalProgress(card(id), v, me));
      row.appendChild(item);
    });
    box.appendChild(row);
    if (v.tie && v.tie.length) {
      box.appendChild(el("p", { class: "fx-tie", text: "Several players meet the Goal at once: nobody wins until only one does." }));
    }
    return box;
  }

  // "You have 1 of 2": how close the viewer is to a Goal, from the cards in front of them
  // (a card standing in for a needed one counts; the engine decides whether it may).
  function goalProgress(c, v, me) {
    var mine = v.keepers[me].concat(v.creepers[me]), got = 0, need = 0;
    var named = (c.needs || []).filter(function (n) { return n.card; }).map(function (n) { return n.card; });
    if ((c.needs || []).some(function (n) { return n.nothing; })) {
      var left = mine.length + v.my_hand.length;
      return el("p", { class: "fx-progress muted", text: left ? "You still have " + left + " card(s) to be rid of."
                                                              : "You have nothing at all." });
    }
    (c.needs || []).forEach(function (n) {
      if (n.others) return;
      if (n.card) {
        need += 1;
        if (mine.indexOf(n.card) >= 0 || (n.or || []).some(function (k) { return mine.indexOf(k) >= 0; })) got += 1;
      } else if (n.cards) {
        need += n.count;
        got += Math.min(n.count, mine.filter(function (k) { return n.cards.indexOf(k) >= 0 && named.indexOf(k) < 0; }).length);
      }
    });
    return el("p", { class: "fx-progress muted", text: "You have " + got + " of " + need + "." });
  }

  function playersPanel(v, data, ctx) {
    var list = el("ul", { class: "fx-players", "data-testid": "players" });
    for (var s = 0; s < v.players; s++) {
      var turn = v.turn && v.turn.seat === s;
      var li = el("li", { class: "fx-player seat-" + s + (turn ? " to-act" : "") + (v.active[s] ? "" : " gone"),
                          "data-seat": String(s) });
      var head = el("div", { class: "fx-who" }, el("span", { class: "dot" }), el("b", { text: ctx.seatName(s) }));
      if (s === data.my_seat) head.appendChild(el("span", { class: "you", text: "you" }));
      if (!v.active[s]) head.appendChild(el("span", { class: "muted", text: " left the game" }));
      else {
        var n = v.hand_counts[s];
        head.appendChild(el("span", { class: "fx-count", text: n + (n === 1 ? " card in hand" : " cards in hand") }));
        if (turn) head.appendChild(el("span", { class: "fx-turn-mark", text: "playing" }));
      }
      li.appendChild(head);
      var table = el("div", { class: "fx-table-cards" });
      v.keepers[s].forEach(function (id) { table.appendChild(chip(id)); });
      v.creepers[s].forEach(function (id) { table.appendChild(chip(id)); });
      if (!table.childNodes.length && v.active[s]) table.appendChild(el("span", { class: "muted", text: "no Keepers yet" }));
      li.appendChild(table);
      list.appendChild(li);
    }
    return el("section", { class: "fx-panel fx-players-panel" }, el("h3", { text: "Players" }), list);
  }

  function pilesPanel(v, ctx) {
    var box = el("section", { class: "fx-panel fx-piles", "data-testid": "piles" }, el("h3", { text: "Piles" }));
    box.appendChild(el("p", { text: "Draw pile: " + v.draw_count + " \u00b7 Discard pile: " + v.discard_count }));
    if (v.discard_top) box.appendChild(el("div", { class: "fx-row" }, faceButton(v.discard_top, "small", { title: "Top of the discard pile" })));
    if (v.resolving.length) {
      var row = el("div", { class: "fx-table-cards" }, el("span", { text: "Being played: " }));
      v.resolving.forEach(function (id) { row.appendChild(chip(id)); });
      box.appendChild(row);
    }
    if (v.my_pool && v.my_pool.length) {
      var pool = el("div", { class: "fx-table-cards", "data-testid": "pool" }, el("span", { text: "Drawn for you to use: " }));
      v.my_pool.forEach(function (id) { pool.appendChild(chip(id)); });
      box.appendChild(pool);
    } else if (v.pool_count) {
      box.appendChild(el("p", { class: "muted", text: ctx.seatName(v.turn.seat) + " holds " + v.pool_count +
                                                      " drawn card(s) to use." }));
    }
    return box;
  }

  function handPanel(v, data) {
    var moves = data.legal_moves || [];
    var box = el("section", { class: "fx-panel fx-hand-panel", "data-testid": "hand" },
      el("h3", { text: "Your hand (" + v.my_hand.length + ")" }));
    if (!v.my_hand.length) {
      box.appendChild(el("p", { class: "muted", text: "Your hand is empty." }));
      return box;
    }
    var row = el("div", { class: "fx-hand" });
    v.my_hand.forEach(function (id) {
      var playable = moves.some(function (m) { return m.type === "play" && m.card === id; });
      var b = el("button", { type: "button", class: "fx-card" + (playable ? " playable" : "") + (ui.open === id ? " selected" : ""),
                             "data-card": id, "aria-label": card(id).name + (playable ? " (playable)" : "") });
      b.appendChild(face(id, false));
      b.addEventListener("click", function () { openCard(id, true); });
      row.appendChild(b);
    });
    box.appendChild(row);
    if (moves.some(function (m) { return m.type === "play"; })) {
      box.appendChild(el("p", { class: "muted", text: "Pick a card to read it and play it." }));
    }
    return box;
  }

  // A text box whose contents survive redraws (another player's move redraws the table).
  function field(key, attrs) {
    var tag = attrs.rows ? "textarea" : "input";
    var input = el(tag, Object.assign({ maxlength: String(MAX_WORDS) }, attrs));
    input.value = ui.fields[key] || "";
    input.addEventListener("input", function () { ui.fields[key] = input.value; });
    return input;
  }

  // Keeper powers, free-action rules, the physical acts and "end my turn": the turn's other moves.
  function actionsPanel(v, data, ctx) {
    var moves = data.legal_moves || [];
    var box = el("section", { class: "fx-panel fx-actions", "data-testid": "turn-actions" });
    var powers = byType(moves, "power");
    if (powers.length) box.appendChild(powerControls(powers, v, ctx));
    byType(moves, "get_on_with_it").forEach(function (m) {
      box.appendChild(el("button", { type: "button", "data-testid": "get-on-with-it", onclick: function () { send(ctx, m); } },
        "Get On With It! (discard your hand, draw 3, end your turn)"));
    });
    byType(moves, "swap_plays").forEach(function (m) {
      box.appendChild(el("button", { type: "button", "data-testid": "swap-plays", onclick: function () { send(ctx, m); } },
        "Swap Plays for Draws (draw instead of playing; your turn ends)"));
    });
    if (byType(moves, "sing").length) box.appendChild(singForm(v, ctx));
    if (byType(moves, "accent").length) box.appendChild(accentForm(ctx));
    byType(moves, "end_turn").forEach(function (m) {
      box.appendChild(el("button", { type: "button", class: "primary", "data-testid": "end-turn",
                                     onclick: function () { send(ctx, m); } }, "End my turn"));
    });
    return box.childNodes.length ? el("section", { class: "fx-panel fx-actions-panel" }, el("h3", { text: "Also this turn" }), box)
      : null;
  }

  function powerControls(powers, v, ctx) {
    var box = el("div", { class: "fx-powers" });
    var keepers = [];
    powers.forEach(function (m) { if (keepers.indexOf(m.card) < 0) keepers.push(m.card); });
    keepers.forEach(function (k) {
      var group = el("div", { class: "fx-power" }, el("b", { text: card(k).name + ": " }));
      powers.filter(function (m) { return m.card === k; }).forEach(function (m) {
        group.appendChild(el("button", { type: "button", "data-testid": "power", "data-card": k, "data-target": m.target,
                                         "data-to": m.to !== undefined ? String(m.to) : "",
                                         "data-discard": m.discard !== undefined ? m.discard : "",
                                         onclick: function () { send(ctx, m); } }, powerLabel(card(k).power, m, v, ctx)));
      });
      box.appendChild(group);
    });
    return box;
  }

  // One power move in words: "hand Grim Reaper to robin", "smite Grim Reaper (robin)",
  // "throw it with Grim Reaper (robin)", "fling Airborne Cow at robin, throwing away Sir Robin".
  function powerLabel(power, m, v, ctx) {
    var owner = ownerOf(v, m.target), target = card(m.target).name;
    var whose = owner !== null ? " (" + ctx.seatName(owner) + ")" : "";
    if (power === "catapult") {
      return "fling " + target + " at " + ctx.seatName(m.to) + ", throwing away " +
        (m.discard === m.target ? "it" : card(m.discard).name);
    }
    if (m.to !== undefined) return "hand " + target + " to " + ctx.seatName(m.to);
    if (power === "sacrifice" || power === "grenade") return "throw it with " + target + whose;
    if (power === "smite") return "smite " + target + whose;
    return "discard " + target + whose;
  }

  function singForm(v, ctx) {
    var song = field("song", { "aria-label": "Song title", placeholder: "Which Python song?", "data-testid": "song" });
    var words = field("sing-words", { rows: "2", "aria-label": "The lines you sing", placeholder: "A few lines of it",
                                      "data-testid": "sing-words" });
    var sung = v.songs_sung.length ? " Sung in this game so far: " + v.songs_sung.join("; ") + "." : "";
    var form = el("form", { class: "fx-claim", "data-testid": "sing-form" },
      el("p", { class: "muted", text: "Python Song Bonus: sing before your first play and the others judge it. " +
                                      "Accepted, you draw 1 card, 2 for a song nobody has sung in this game." + sung }),
      song, words, el("button", { class: "primary", "data-testid": "sing" }, "Sing it"));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      send(ctx, { type: "sing", song: song.value, words: words.value }, function () { ui.fields.song = ui.fields["sing-words"] = ""; });
    });
    return form;
  }

  function accentForm(ctx) {
    var accent = field("accent", { "aria-label": "Which accent", placeholder: "Which accent? (French, Scottish...)",
                                   "data-testid": "accent-name" });
    var words = field("accent-words", { rows: "2", "aria-label": "What you say in it", placeholder: "What you say in it",
                                        "data-testid": "accent-words" });
    var form = el("form", { class: "fx-claim", "data-testid": "accent-form" },
      el("p", { class: "muted", text: "Outrageous Accent Bonus: say something in a silly accent and the others judge it. " +
                                      "Accepted, you draw 1 card, 2 if you used the same accent on your last turn." }),
      accent, words, el("button", { class: "primary", "data-testid": "accent" }, "Say it"));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      send(ctx, { type: "accent", accent: accent.value, words: words.value },
           function () { ui.fields.accent = ui.fields["accent-words"] = ""; });
    });
    return form;
  }

  /* The opened card: its large face and text; from your hand, its plays (and the quote). */
  function openedCard(data, ctx) {
    var id = ui.open, c = card(id), moves = data.legal_moves || [];
    var shade = el("div", { class: "fx-shade", onclick: function (ev) { if (ev.target === shade) close(); } });
    var box = el("div", { class: "fx-opened", role: "dialog", "aria-label": c.name, "data-testid": "opened" });
    function close() { ui.open = null; redraw(); }
    box.appendChild(el("button", { type: "button", class: "fx-close", "aria-label": "Close", onclick: close }, "\u00d7"));
    box.appendChild(face(id, true));
    box.appendChild(el("p", { class: "fx-opened-text", text: c.text }));
    if (ui.fromHand) {
      var plain = moves.filter(function (m) { return m.type === "play" && m.card === id && m.quote === undefined; })[0];
      var quoted = moves.filter(function (m) { return m.type === "play" && m.card === id && m.quote !== undefined; })[0];
      if (plain) {
        box.appendChild(el("button", { type: "button", class: "primary", "data-testid": "play",
                                       onclick: function () { send(ctx, plain); } }, "Play " + c.name));
      } else {
        box.appendChild(el("p", { class: "muted", text: whyNotPlayable(data) }));
      }
      if (quoted) box.appendChild(quoteForm(c, ctx));
    }
    shade.appendChild(box);
    shade.addEventListener("keydown", function (ev) { if (ev.key === "Escape") close(); });
    return shade;
  }

  function quoteForm(c, ctx) {
    var quote = field("quote-" + c.id, { "aria-label": "Your quote", "data-testid": "quote",
                                         placeholder: "A Python line that mentions " + c.name });
    var form = el("form", { class: "fx-claim", "data-testid": "quote-form" },
      el("p", { class: "muted", text: "What Is Your Quote?: play it with a line that mentions it (" +
                                      c.keywords.join(", ") + ") and draw 1 extra card, once a turn." }),
      quote, el("button", { class: "primary", "data-testid": "play-quote" }, "Play it with this quote"));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      send(ctx, { type: "play", card: c.id, quote: quote.value }, function () { ui.fields["quote-" + c.id] = ""; });
    });
    return form;
  }

  function whyNotPlayable(data) {
    var v = data.view;
    if (data.replay || data.status !== "active" || v.result) return "";
    if ((v.decisions || []).some(function (d) { return !d.done; })) return "The table is waiting for a choice first.";
    if (v.turn.seat !== data.my_seat) return "You can play it on your turn.";
    return "You have made your plays this turn.";
  }

  /* ---- drawing --------------------------------------------------------------------- */

  var current = null;   // what the table was last drawn from: {root, data, ctx, key}

  function redraw() {
    if (!current) return;
    if (!deck) current.root.textContent = deckError ? "Could not load the cards: " + deckError : "Shuffling the cards\u2026";
    else draw(current.root, current.data, current.ctx);
  }

  function draw(root, data, ctx) {
    var v = data.view;
    if (ui.open && ui.fromHand && (!v.my_hand || v.my_hand.indexOf(ui.open) < 0)) ui.open = null;
    root.textContent = "";
    var wrapBox = el("div", { class: "fx" });
    wrapBox.appendChild(el("p", { class: "fx-status", "data-testid": "status", text: statusLine(data, ctx) }));
    wrapBox.appendChild(goalsPanel(v, data));
    wrapBox.appendChild(rulesPanel(v, ctx));
    if (v.my_hand) {
      wrapBox.appendChild(handPanel(v, data));
      if (!data.replay) {
        var actions = actionsPanel(v, data, ctx);
        if (actions) wrapBox.appendChild(actions);
      }
    } else {
      wrapBox.appendChild(el("p", { class: "muted fx-hand-panel", text: "You are watching: every hand stays hidden." }));
    }
    wrapBox.appendChild(playersPanel(v, data, ctx));
    wrapBox.appendChild(pilesPanel(v, ctx));
    if (ui.open) wrapBox.appendChild(openedCard(data, ctx));
    root.appendChild(wrapBox);
    if (ui.open && ui.focus) {  // a card just opened: keyboard focus goes into it (Escape closes)
      ui.focus = false;
      root.querySelector(".fx-opened .fx-close").focus();
    }
  }

  // The faces, for tests/browser/test_fluxx_browser.py to measure every card of the deck.
  Grail.fluxxFace = face;

  Grail.registerRenderer("fluxx", {
    render: function (root, data, ctx) {
      // The same state comes twice after your own move (the push and the reply): redrawing
      // an unchanged table would drop a click in progress, so it is left as it is.
      var key = JSON.stringify([data.id, data.my_seat, data.view, data.legal_moves, data.status,
                                (data.seats || []).map(function (s) { return s.username; })]);
      if (ui.busy && data.version > ui.busy.version) ui.busy = null;
      if (current && current.root === root && current.key === key && root.firstChild) return;
      if (ui.match !== data.id) ui = { match: data.id, open: null, fromHand: false, busy: null, fields: {} };
      current = { root: root, data: data, ctx: ctx, key: key };
      if (deck) draw(root, data, ctx);
      else { redraw(); withDeck(redraw); }
    }
  });
})();
