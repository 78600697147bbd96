/* Monty Python Fluxx: the table in the browser.

   Card faces are HTML drawn from the deck's data (GET /api/fluxx/cards/, fetched once):
   the type's colour, the name and one short line; a tap (or Enter) on any card opens it in
   a <dialog> with its whole text, and a card from your hand with its plays; Escape closes
   it. Every control is built from data.legal_moves; the choices inside Actions and the
   out-of-turn discards are the shared decision bar's (static/js/match.js, drawDecisions).
   A move refused (a quote, a song, an accent) says why beside the form it came from, in
   the opened card when it came from there. Text goes in with textContent only: usernames,
   songs and quotes are user input. */
(function () {
  "use strict";
  var el = Grail.el;
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

  /* ---- faces ---------------------------------------------------------------------- */

  /* A card face in HTML text, so it reads at the page's own sizes (nothing under 12 px, a
     phone's hand included): the type's band, the name, and on a small face (hand, table,
     piles) one short line from the deck's data (a Goal's needs, a Keeper's power, the start
     of the text; none when the name says it all). The large face, on the opened card, has
     the whole text (a Goal's in a sentence, with what stands in and what stops it). */
  function face(id, large) {
    var c = card(id);
    var node = el(large ? "div" : "span", { class: "fx-face fx-" + c.type + (large ? " large" : " small"),
                                            "data-card": id });
    node.appendChild(el("span", { class: "fx-f-type", text: TYPE_LABEL[c.type] }));
    node.appendChild(el("span", { class: "fx-f-name", text: c.name }));
    var line = large ? (c.type === "goal" && c.summary ? c.summary : c.text) : c.short;
    if (line) node.appendChild(el("span", { class: large ? "fx-f-text" : "fx-f-line", text: line }));
    return node;
  }

  /* ---- the pieces of the table --------------------------------------------------- */

  // What the player is doing between redraws (a redraw comes with every update). ``error``:
  // the last refusal, {where: the form it belongs to, text}.
  var ui = { match: null, open: null, fromHand: false, busy: null, fields: {}, error: null };

  /* One move at a time: a second click while the first is on its way is dropped. The page
     is free again when the move is answered or a newer state arrives, whichever comes first
     (the reply waits for a reload that may come after the next state: waiting for it would
     swallow the next click). A played card leaves the hand, which closes it (see draw). */
  function send(ctx, move, then, where) {
    if (ui.busy) return;
    var mine = ui.busy = { version: current.data.version };
    ui.error = null;
    ctx.submit(move).then(function () { if (then) then(); }, function (err) {
      // A form's refusal is said beside it (over the table when the card is open), not in
      // the page's box above the table, which the opened card covers and a phone has
      // scrolled away from; the table's own buttons leave it to that box.
      if (!where) return;
      ui.error = { where: where, text: err.message };
      ctx.showError("");
    }).then(function () { if (ui.busy === mine) ui.busy = null; redraw(); });
  }

  // Why a form cannot be sent, said in it without asking the server.
  function refuse(where, text) { ui.error = { where: where, text: text }; redraw(); }

  function errorFor(where) {
    if (!ui.error || ui.error.where !== where) return null;
    return el("p", { class: "fx-error", role: "alert", "data-testid": "form-error", text: ui.error.text });
  }

  function openCard(id, fromHand) { ui.open = id; ui.fromHand = fromHand; ui.error = null; ui.focus = true; redraw(); }

  function byType(moves, type) { return moves.filter(function (m) { return m.type === type; }); }

  function ownerOf(v, id) {
    for (var s = 0; s < v.players; s++) {
      if (v.keepers[s].indexOf(id) >= 0 || v.creepers[s].indexOf(id) >= 0) return s;
    }
    return null;
  }

  // A face that opens the card when clicked (a button, so keyboards reach it too; what it
  // says is its name for a screen reader, read once).
  function faceButton(id, cls, extra) {
    var b = el("button", { type: "button", class: "fx-facebtn " + (cls || ""), "data-card": id,
                           "aria-haspopup": "dialog" });
    Object.keys(extra || {}).forEach(function (k) { b.setAttribute(k, extra[k]); });
    b.appendChild(face(id, false));
    b.addEventListener("click", function () { openCard(id, false); });
    return b;
  }

  // A Keeper or Creeper on the table: a coloured label with its name (a star: it has a power); opens the card.
  function chip(id) {
    var c = card(id);
    var b = el("button", { type: "button", class: "fx-chip fx-" + c.type, "data-card": id, "aria-haspopup": "dialog",
                           onclick: function () { openCard(id, false); } }, c.name);
    if (c.power) {
      b.appendChild(el("span", { class: "fx-star", title: "Has a power", "aria-hidden": "true" }, " \u2605"));
      b.appendChild(el("span", { class: "fx-sr" }, " (has a power)"));
    }
    return b;
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
      // The face says what it needs in short; the opened card in a sentence.
      var item = el("div", { class: "fx-goal-item" }, faceButton(id, "goal"));
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
                             "data-card": id, "aria-haspopup": "dialog" });
      b.appendChild(face(id, false));
      if (playable) b.appendChild(el("span", { class: "fx-sr" }, " (playable)"));
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
      song, words, errorFor("sing"), el("button", { class: "primary", "data-testid": "sing" }, "Sing it"));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!words.value.trim()) { refuse("sing", "Type a few lines of the song for the others to judge."); return; }
      send(ctx, { type: "sing", song: song.value, words: words.value }, function () { ui.fields.song = ui.fields["sing-words"] = ""; },
           "sing");
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
      accent, words, errorFor("accent"), el("button", { class: "primary", "data-testid": "accent" }, "Say it"));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!words.value.trim()) { refuse("accent", "Type what you say in the accent for the others to judge."); return; }
      send(ctx, { type: "accent", accent: accent.value, words: words.value },
           function () { ui.fields.accent = ui.fields["accent-words"] = ""; }, "accent");
    });
    return form;
  }

  /* The opened card, in a modal <dialog> (over everything, the rest of the page inert
     meanwhile): its large face with the whole text; from your hand, its plays (and the
     quote). Escape, the close button or a tap beside it closes it. */
  function openedCard(data, ctx) {
    var id = ui.open, c = card(id), moves = data.legal_moves || [];
    var dialog = el("dialog", { class: "fx-dialog", "aria-label": c.name, "data-testid": "opened" });
    var box = el("div", { class: "fx-opened" });
    function close() { if (ui.open === id) { ui.open = null; ui.error = null; ui.closedFrom = id; redraw(); } }
    // Escape (the dialog's cancel) and a tap on the backdrop (outside the box) close it; a
    // dialog taken out by a redraw says nothing (it is no longer in the page).
    dialog.addEventListener("close", function () { if (dialog.isConnected) close(); });
    dialog.addEventListener("click", function (ev) { if (ev.target === dialog) close(); });
    box.appendChild(el("button", { type: "button", class: "fx-close", "aria-label": "Close", onclick: close }, "\u00d7"));
    box.appendChild(face(id, true));
    if (ui.fromHand) {
      var plain = moves.filter(function (m) { return m.type === "play" && m.card === id && m.quote === undefined; })[0];
      var quoted = moves.filter(function (m) { return m.type === "play" && m.card === id && m.quote !== undefined; })[0];
      if (plain) {
        box.appendChild(el("button", { type: "button", class: "primary", "data-testid": "play",
                                       onclick: function () { send(ctx, plain, null, "play"); } }, "Play " + c.name));
        var refused = errorFor("play");
        if (refused) box.appendChild(refused);
      } else {
        box.appendChild(el("p", { class: "muted", text: whyNotPlayable(data) }));
      }
      if (quoted) box.appendChild(quoteForm(c, data.view, ctx));
    }
    dialog.appendChild(box);
    return dialog;
  }

  function quoteForm(c, v, ctx) {
    var judged = v.quotes === "judged";
    var quote = field("quote-" + c.id, { "aria-label": "Your quote", "data-testid": "quote",
                                         placeholder: judged ? "A Python line about " + c.name : "A Python line that mentions " + c.name });
    var how = judged ? "play it with a Python line about it, and if the other players accept the quote, draw 1 extra card"
      : "play it with a line that mentions it (" + c.keywords.join(", ") + ") and draw 1 extra card";
    var form = el("form", { class: "fx-claim", "data-testid": "quote-form" },
      el("p", { class: "muted", text: "What Is Your Quote?: " + how + ", once a turn." }),
      quote, errorFor("quote"), el("button", { class: "primary", "data-testid": "play-quote" }, "Play it with this quote"));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!quote.value.trim()) { refuse("quote", "Type the line you quote first, or play the card without one."); return; }
      send(ctx, { type: "play", card: c.id, quote: quote.value }, function () { ui.fields["quote-" + c.id] = ""; }, "quote");
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

  // The control that has the keyboard, to give it back after a redraw (another player's move
  // redraws the table while you type a quote): its test id, or the card its button shows.
  function focusKey(root) {
    var a = document.activeElement;
    if (!a || a === document.body || !root.contains(a)) return null;
    var inDialog = !!(a.closest && a.closest("dialog"));
    if (a.getAttribute("data-testid")) return { sel: "[data-testid='" + a.getAttribute("data-testid") + "']", inDialog: inDialog };
    if (a.getAttribute("data-card")) return { sel: "." + a.className.split(" ")[0] + "[data-card='" + a.getAttribute("data-card") + "']",
                                               inDialog: inDialog };
    return null;
  }

  function draw(root, data, ctx) {
    var v = data.view;
    if (ui.open && ui.fromHand && (!v.my_hand || v.my_hand.indexOf(ui.open) < 0)) { ui.open = null; ui.error = null; }
    var had = focusKey(root);
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
    var dialog = ui.open ? openedCard(data, ctx) : null;
    if (dialog) wrapBox.appendChild(dialog);
    root.appendChild(wrapBox);
    if (dialog) dialog.showModal();  // focus goes into it (the close button first); Escape closes
    var back = had && (!had.inDialog || dialog) && root.querySelector((had.inDialog ? "dialog " : "") + had.sel);
    if (back && !ui.focus) back.focus();
    else if (!dialog && ui.closedFrom) {  // a card just closed: back to the card that opened it
      var opener = root.querySelector("[data-card='" + ui.closedFrom + "'][aria-haspopup]");
      if (opener) opener.focus();
    }
    ui.focus = false;
    ui.closedFrom = null;
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
      if (ui.match !== data.id) ui = { match: data.id, open: null, fromHand: false, busy: null, fields: {}, error: null };
      current = { root: root, data: data, ctx: ctx, key: key };
      if (deck) draw(root, data, ctx);
      else { redraw(); withDeck(redraw); }
    }
  });
})();
