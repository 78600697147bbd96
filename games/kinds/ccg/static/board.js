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
  var SVG_NS = "http://www.w3.org/2000/svg";

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
      // A castle's occupant choice names the chooser's own candidates (docs/rules/ccg.md §15).
      ((v.pending && v.pending.option_cards) || []).forEach(add);
      Object.defineProperty(v, "_index", { value: idx, enumerable: false });
    }
    return v._index[iid];
  }

  /* ---- card faces --------------------------------------------------------------------
     The picture comes from the card database at an address built from the card's code
     (decks: the uploaded image, else the generated face). Codes are only in the view for
     cards this viewer may see, so nothing else is ever asked for. The database shows an
     unpublished Write Yer Own card to its author only; for anyone else the image fails
     and a face is drawn here from the definition the view already gave. */

  function faceUrl(code) { return "/decks/cards/" + encodeURIComponent(code) + "/image/"; }

  function svgEl(tag, attrs, text) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function wrapWords(text, width, most) {
    var lines = [], line = "";
    (text || "").split(/\s+/).filter(Boolean).forEach(function (w) {
      if (line && line.length + 1 + w.length > width) { lines.push(line); line = w; } else line = line ? line + " " + w : w;
    });
    if (line) lines.push(line);
    return lines.slice(0, most);
  }

  // The same layout as the database's generated face (templates/decks/card_face.svg).
  function drawnFace(d) {
    var font = "Georgia, serif";
    var face = svgEl("svg", { viewBox: "0 0 250 350", class: "ccg-face drawn", role: "img", "aria-label": d.title,
                              "data-testid": "card-face" });
    face.appendChild(svgEl("rect", { x: 2, y: 2, width: 246, height: 346, rx: 14, fill: "#fffdf7", stroke: "#2b2118", "stroke-width": 3 }));
    face.appendChild(svgEl("rect", { x: 12, y: 12, width: 226, height: 34, rx: 6, fill: "#8b1e1e" }));
    face.appendChild(svgEl("text", { x: 20, y: 35, "font-family": font, "font-size": d.title.length > 22 ? 12 : 16, fill: "#fff" },
                           d.title.length > 34 ? d.title.slice(0, 33) + "\u2026" : d.title));
    face.appendChild(svgEl("circle", { cx: 212, cy: 78, r: 20, fill: "#c9a227", stroke: "#2b2118" }));
    face.appendChild(svgEl("text", { x: 212, y: 85, "text-anchor": "middle", "font-family": font, "font-size": 20,
                                     "font-weight": "bold", fill: "#2b2118" }, String(d.grail)));
    face.appendChild(svgEl("text", { x: 20, y: 70, "font-family": font, "font-size": 13, fill: "#7a6e5f" },
                           (TYPE_NAMES[d.type] || d.type) + (d.unique === false ? " \u00b7 generic" : "")));
    if (d.combat !== null && d.combat !== undefined)
      face.appendChild(svgEl("text", { x: 20, y: 92, "font-family": font, "font-size": 14, fill: "#2b2118" }, "Combat " + d.combat));
    if (d.wits !== null && d.wits !== undefined)
      face.appendChild(svgEl("text", { x: 110, y: 92, "font-family": font, "font-size": 14, fill: "#2b2118" }, "Wits " + d.wits));
    face.appendChild(svgEl("rect", { x: 12, y: 104, width: 226, height: 110, fill: "#efe6d2", stroke: "#e0d5bd" }));
    face.appendChild(svgEl("text", { x: 125, y: 165, "text-anchor": "middle", "font-family": font, "font-size": 40, fill: "#c9a227" }, "\u2655"));
    wrapWords(d.text, 38, 5).forEach(function (line, i) {
      face.appendChild(svgEl("text", { x: 18, y: 230 + 13 * i, "font-family": font, "font-size": 11, fill: "#2b2118" }, line));
    });
    wrapWords(d.quote, 42, 3).forEach(function (line, i) {
      face.appendChild(svgEl("text", { x: 18, y: 300 + 12 * i, "font-family": font, "font-style": "italic", "font-size": 10,
                                       fill: "#7a6e5f" }, line));
    });
    return face;
  }

  function faceOf(v, code) {
    var d = def(v, code);
    var img = el("img", { class: "ccg-face", alt: d.title, src: faceUrl(code), "data-testid": "card-face", "data-code": code });
    img.addEventListener("error", function () { if (img.parentNode) img.parentNode.replaceChild(drawnFace(d), img); });
    return img;
  }

  // The face beside the card's type, numbers, text and quote.
  function cardView(v, code) {
    var d = def(v, code);
    var info = el("div", { class: "ccg-info" }, el("h4", { text: d.title }),
      el("p", { class: "muted", text: (TYPE_NAMES[d.type] || d.type) + " \u00b7 " + numbers(d) }));
    if (d.text) info.appendChild(el("p", { class: "ccg-text", text: d.text }));
    if (d.quote) info.appendChild(el("p", { class: "ccg-quote", text: "\u201c" + d.quote + "\u201d" }));
    return el("div", { class: "ccg-face-card" }, faceOf(v, code), info);
  }

  // Hovering with a mouse shows the card beside the pointer; touch has no hover, a tap
  // opens the detail panel (or, for a hand card, its options) instead.
  var hoverBox = null;
  function hideHover() {
    if (hoverBox && hoverBox.parentNode) hoverBox.parentNode.removeChild(hoverBox);
    hoverBox = null;
  }

  function showHover(v, code, anchor) {
    hideHover();
    hoverBox = el("aside", { class: "ccg-hover", "data-testid": "card-hover" }, cardView(v, code));
    document.body.appendChild(hoverBox);
    var r = anchor.getBoundingClientRect(), w = hoverBox.offsetWidth, h = hoverBox.offsetHeight;
    var left = r.right + 8 + w <= window.innerWidth ? r.right + 8 : Math.max(4, r.left - 8 - w);
    hoverBox.style.left = left + "px";
    hoverBox.style.top = Math.max(4, Math.min(r.top, window.innerHeight - h - 4)) + "px";
  }

  function previewOnHover(v, node, code) {
    node.addEventListener("pointerenter", function (ev) { if (ev.pointerType === "mouse") showHover(v, code, node); });
    node.addEventListener("pointerleave", hideHover);
    return node;
  }

  // ``own``: the caller handles a click (hand cards select; their face shows with the options).
  function chip(v, c, extra, own) {
    var d = def(v, c.code);
    var node = el("button", { type: "button", class: "ccg-card type-" + (d.type || "x") + (extra ? " " + extra : ""),
                              "aria-label": cardText(d), "data-card": c.id, "data-code": c.code },
      el("span", { class: "ccg-title", text: d.title }),
      el("span", { class: "ccg-nums", text: numbers(d) }));
    if (!own) node.addEventListener("click", function (ev) { ev.stopPropagation(); hideHover(); ui.detail = c.code; redraw(); });
    return previewOnHover(v, node, c.code);
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
    if (v.last_dispute && v.last_dispute.area === a.ref) {
      box.classList.add("disputed");
      box.appendChild(el("div", { class: "ccg-note ccg-disputed", text: "\u2694 last dispute: " +
        (v.last_dispute.result === "tie" ? "a tie" : (v.last_dispute.result === "lead" ? "the Round Table won" : "the adversary won")) }));
    }
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

  // How often the ante was doubled, in words; an offer still waiting is not a doubling yet.
  function doublingWords(v, ctx) {
    var d = v.doubling, n = d.count, offer = v.pending && v.pending.kind === "offer" ? v.pending : null;
    var text = n === 0 ? "Not doubled yet." : n === 1 ? "Doubled once." : "Doubled " + n + " times.";
    if (offer) text += " " + ctx.seatName(offer.from) + " offers to double it: waiting for an answer.";
    if (d.since.length) text += " Doubled since the last round: " + d.since.map(ctx.seatName).join(", ") + ".";
    return text;
  }

  // Once the game is over the ante is no longer at stake: the heading says where it went
  // (the banner above says it in full, from the server).
  var ANTE_AFTER = { won: "The ante, won by ", carried: "The ante, carried over to the rematch",
                     returned: "The ante, gone back to its owners" };

  function anteHeading(v, ctx) {
    var r = v.result;
    if (!r) return "The ante";
    if (r.ante === "won") return ANTE_AFTER.won + ctx.seatName(r.finder);
    return ANTE_AFTER[r.ante] || ANTE_AFTER.returned;
  }

  function drawAnte(v, ctx, data) {
    var sec = el("section", { class: "ccg-ante" + (v.result ? " settled" : ""), "data-testid": "ante" },
      el("h3", { "data-testid": "ante-heading", text: anteHeading(v, ctx) }));
    if (data && data.practice) {
      // "Try this deck" and games against the computer: the ante is played, nothing is at stake.
      sec.appendChild(el("p", { class: "muted", "data-testid": "practice-ante",
        text: "A practice game: the ante is played as the rules say, but nothing is staked; no card leaves or joins anyone's collection." }));
    }
    v.ante.forEach(function (c) {
      sec.appendChild(el("span", { class: "ccg-owner", text: ctx.seatName(c.owner) + ": " }));
      sec.appendChild(chip(v, c));
    });
    if (!v.ante.length) sec.appendChild(el("span", { class: "muted", text: "nothing yet" }));
    if (v.options.double_the_ante) {
      sec.appendChild(el("p", { class: "ccg-doubling", "data-testid": "doubling", text: doublingWords(v, ctx) }));
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
    return "Play " + parts.concat(targetParts(v, ctx, m)).join(", ");
  }

  // What a play or an ability names as its target (knight, foe, area, opponent).
  function targetParts(v, ctx, m) {
    var parts = [];
    if (m.pick !== undefined) parts.push("on " + titleOf(v, m.pick));
    if (m.foe !== undefined) parts.push("against " + titleOf(v, m.foe));
    if (m.area !== undefined) parts.push("on everyone in " + areaName(v, ctx, m.area));
    if (m.target !== undefined) parts.push("aimed at " + ctx.seatName(m.target));
    return parts;
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
      case "use": return ["Use " + titleOf(v, m.card)].concat(targetParts(v, ctx, m)).join(", ");
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
    var node = el("button", { type: "button", class: "ccg-move" + (cls ? " " + cls : ""), "data-move": m.type,
                              onclick: function () { hideHover(); send(ctx, withWords(v, m)); }, text: label(v, ctx, m) });
    var option = m.type === "choose" && typeof m.option === "number" ? findCard(v, m.option) : null;
    if (option) {
      node.appendChild(el("span", { class: "ccg-nums", text: " (" + numbers(def(v, option.code)) + ")" }));
      previewOnHover(v, node, option.code);
    }
    return node;
  }

  function promptText(v, ctx, data) {
    var pend = v.pending;
    // The view's own result, not data.outcome: a replay shows earlier steps of a finished game.
    // A live page says the end once, in the banner above the board (match.js).
    if (v.result) return data.replay ? "Game over: " + ctx.withNames(v.result.reason || "") : "";
    if (!pend) return "";
    var who = pend.seat !== undefined ? ctx.seatName(pend.seat) : (pend.waiting || []).map(ctx.seatName).join(", ");
    var mine = data.my_seat !== null && data.my_seat !== undefined && pend.seat === data.my_seat;
    // My own turn says the next step in words (the buttons below are its moves).
    if (mine && pend.kind === "turn") return "Your turn: play cards, move your Round Table one area, settle any dispute " +
      "(or run away), then end your turn.";
    var text = (mine ? "You are" : who + " is") + " asked " + (WAITS[pend.kind] || "to act");
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
    // A line of its own: beside the cut's label it read "Always pass response windowsLift this many ...".
    return el("p", { class: "ccg-preset-line" }, el("label", { class: "ccg-preset" }, box, " Always pass response windows"));
  }

  // When an offer or a window waits, say how long the answer may take ("bob must answer
  // within 14 min"; the moment itself on hover); the seats bar shows every clock too.
  function deadlines(v, ctx, data) {
    var pend = v.pending;
    if (!pend || (pend.kind !== "offer" && pend.kind !== "response")) return null;
    var due = data.seats.filter(function (s) { return s.to_act && s.deadline; });
    if (!due.length) return null;
    var line = el("p", { class: "ccg-deadline", "data-testid": "answer-by" });
    due.forEach(function (s, i) {
      line.appendChild(document.createTextNode((i ? "; " : "") + ctx.seatName(s.seat) + " must answer "));
      line.appendChild(Grail.clock(s.deadline, "within"));
    });
    line.appendChild(document.createTextNode("."));
    return line;
  }

  /* ---- what the last dispute did (7.x): both sides' totals, who won, who died ---------- */

  function disputeResult(d) {
    if (d.result === "tie") return "A tie: " + (d.lead ? d.lead.total : "?") + " to " + (d.foe ? d.foe.total : "?") + ".";
    var won = d.result === "lead" ? d.lead : d.foe, lost = d.result === "lead" ? d.foe : d.lead;
    return (won ? won.name : "?") + " wins, " + (won ? won.total : "?") + " to " + (lost ? lost.total : "?") +
      (d.result === "lead" ? " (the Round Table wins)." : " (the adversary wins).");
  }

  function disputeSide(ctx, side, who) {
    if (!side) return el("span", { class: "muted", text: "?" });
    return el("span", { class: "ccg-side" }, el("b", { text: side.name }), " (" + who + ") ",
      el("span", { class: "ccg-total", text: String(side.total) }));
  }

  function drawDispute(v, ctx) {
    var d = v.last_dispute;
    if (!d) return null;
    var method = d.method === "wits" ? "wits" : "combat";
    var where = d.area_name || (d.area ? areaName(v, ctx, d.area) : "");
    var box = el("section", { class: "ccg-dispute result-" + d.result, "data-testid": "last-dispute", "data-area": d.area || "" },
      el("h3", { text: "Last dispute" + (where ? ": " + where : "") }),
      el("p", { class: "ccg-dispute-line" }, disputeSide(ctx, d.lead, ctx.seatName(d.seat) + ", " + method), " against ",
        disputeSide(ctx, d.foe, "adversary")),
      el("p", { class: "ccg-dispute-result", "data-testid": "dispute-result", text: disputeResult(d) }));
    if ((d.slain || []).length) box.appendChild(el("p", { class: "ccg-slain", text: "Slain: " + d.slain.join(", ") + "." }));
    if ((d.outwitted || []).length) box.appendChild(el("p", { class: "ccg-outwitted", text: "Outwitted: " + d.outwitted.join(", ") + "." }));
    return box;
  }

  function drawControls(v, ctx, data) {
    var moves = data.legal_moves || [];
    // The current decision stays in view wherever the player has scrolled (a sticky bar).
    var box = el("section", { class: "ccg-controls" + (data.replay ? "" : " sticky"), "data-testid": "controls" });
    var prompt = promptText(v, ctx, data);
    box.appendChild(el("p", { class: "ccg-prompt", "data-testid": "prompt", text: prompt }));
    if (data.replay) return box;
    if (!prompt && !moves.length) box.hidden = true;
    var due = deadlines(v, ctx, data);
    if (due) box.appendChild(due);
    if (data.my_seat !== null && data.my_seat !== undefined && data.status === "active") box.appendChild(presetToggle(data, ctx));
    if (!moves.length) return box;
    var pend = v.pending || {};
    if (pend.seat !== data.my_seat && (pend.waiting || []).indexOf(data.my_seat) < 0) {
      // 4.1: face-up plays at any time, between the active player's moves.
      box.appendChild(el("p", { class: "muted", "data-testid": "interject-hint",
        text: "Not your turn, but you may play a card face up or use an ability now." }));
    }
    var cuts = moves.filter(function (m) { return m.type === "cut"; });
    if (cuts.length) {
      var input = el("input", { type: "number", min: cuts[0].at, max: cuts[cuts.length - 1].at,
                                value: Math.floor((cuts[0].at + cuts[cuts.length - 1].at) / 2), "data-testid": "cut-at" });
      box.appendChild(el("p", { class: "ccg-cut-line" }, el("label", { class: "ccg-cut" }, "Lift this many cards off the top: ", input,
        el("button", { type: "button", class: "ccg-move primary", "data-move": "cut", onclick: function () {
          var at = parseInt(input.value, 10);
          var m = cuts.filter(function (c) { return c.at === at; })[0];
          if (m) send(ctx, m); else ctx.showError("Cut between " + input.min + " and " + input.max + " cards.");
        }, text: "Cut" }))));
    }
    var answering = pend.kind === "offer" && (pend.waiting || []).indexOf(data.my_seat) >= 0;
    if (answering && !moves.some(function (m) { return m.type === "accept"; })) {
      // The rules list no "accept" when my deck cannot pay from cards free of my other games'
      // antes (docs/rules/ccg-web.md): say so before I answer, naming no card.
      box.appendChild(el("p", { class: "error", "data-testid": "cannot-accept",
        text: "You cannot accept: too few cards of your deck are free of your other games' antes to pay " +
              "the doubled ante, so conceding is the only answer." }));
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
      var code = (findCard(v, ui.selected) || {}).code, d = def(v, code);
      var panel = el("div", { class: "ccg-options", "data-testid": "card-options" }, cardView(v, code));
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
    return el("aside", { class: "ccg-detail", "data-testid": "card-detail" },
      el("button", { type: "button", class: "ccg-close", "aria-label": "Close",
                     onclick: function () { ui.detail = null; redraw(); }, text: "\u00D7" }),
      cardView(v, ui.detail));
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
    hideHover();   // its card is about to be redrawn
    root.textContent = "";
    var wrap = el("div", { class: "ccg" });
    wrap.appendChild(drawControls(v, ctx, data));
    var dispute = drawDispute(v, ctx);
    if (dispute) wrap.appendChild(dispute);
    if (v.my_hand) wrap.appendChild(drawHand(v, ctx, data));
    var detail = drawDetail(v);
    if (detail) wrap.appendChild(detail);
    if (moves.rt) wrap.appendChild(button(v, ctx, moves.rt));
    wrap.appendChild(drawAnte(v, ctx, data));
    wrap.appendChild(drawAvalon(v, ctx, moves));
    var me = data.my_seat;
    var order = v.players.slice().sort(function (a, b) { return (b.seat === me) - (a.seat === me); });
    order.forEach(function (p) { wrap.appendChild(drawPlayer(v, ctx, p, p.seat === me, moves)); });
    root.appendChild(wrap);
  }

  // What the ante did at the end is said by the server (the rules' ending_notes), in the
  // banner above the board (match.js), the same on a page opened after the end.
  Grail.registerRenderer("ccg", { render: render });
})();
