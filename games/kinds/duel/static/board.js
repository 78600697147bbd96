/* Grail Duel: my hand as buttons, both players' laid cards and totals. */
(function () {
  "use strict";
  var el = Grail.el;

  // What happens next, in words: whose turn, and which card of how many they are laying.
  function statusLine(data, ctx) {
    var v = data.view;
    var over = v.played.every(function (p) { return p.length >= v.rounds; });
    if (over || (data.status && data.status !== "active")) return "The game is over.";
    var nth = "card " + (v.played[v.turn].length + 1) + " of " + v.rounds;
    if (data.my_seat !== null && data.my_seat !== undefined && data.my_seat === v.turn)
      return "Your turn: click a card in your hand to lay it (" + nth + ").";
    return ctx.seatName(v.turn) + " is laying " + nth + ".";
  }
  Grail.registerRenderer("duel", {
    render: function (root, data, ctx) {
      var v = data.view;
      root.textContent = "";
      root.appendChild(el("p", { class: "duel-status", "data-testid": "status", text: statusLine(data, ctx) }));
      var table = el("div", { class: "duel-table" });
      v.played.forEach(function (cards, seat) {
        var row = el("div", { class: "duel-row seat-" + seat + (v.turn === seat ? " active" : "") },
          el("span", { class: "who", text: ctx.seatName(seat) }),
          el("span", { class: "total", "data-testid": "total-" + seat, text: "total " + v.totals[seat] }));
        cards.forEach(function (c) { row.appendChild(el("span", { class: "grail-card", text: String(c) })); });
        row.appendChild(el("span", { class: "muted", text: v.hand_counts[seat] + " in hand" }));
        table.appendChild(row);
      });
      root.appendChild(table);
      root.appendChild(el("p", { class: "muted", text: v.deck_count + " cards left in the deck; " + v.rounds + " rounds each." }));
      if (v.my_hand) {
        var hand = el("div", { class: "hand", "data-testid": "hand" }, el("h3", { text: "Your hand" }));
        var legal = {};
        (data.legal_moves || []).forEach(function (m) { legal[m.card] = m; });
        v.my_hand.forEach(function (c) {
          var move = legal[c];
          var b = el("button", { class: "grail-card big", "data-card": c, text: String(c) });
          if (move) b.addEventListener("click", function () { ctx.submit(move).catch(function () {}); });
          else b.disabled = true;
          hand.appendChild(b);
        });
        root.appendChild(hand);
      }
    }
  });
})();
