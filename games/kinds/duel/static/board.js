/* Grail Duel: my hand as buttons, both players' laid cards and totals. */
(function () {
  "use strict";
  var el = Grail.el;
  Grail.registerRenderer("duel", {
    render: function (root, data, ctx) {
      var v = data.view;
      root.textContent = "";
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
