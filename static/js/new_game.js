/* The new-game form (templates/games/new.html): everything follows the chosen game.
   - its description and rules link sit under the game list;
   - its own options fieldset is shown (and sent), the others' are hidden and disabled;
   - the number of players follows the game (its fewest, unless the player typed a count) and
     stays within the game's range (the form opens on a valid table);
   - a computer-player row is shown for each seat after the creator's, up to the number of
     players, offering only the levels this game has. */
(function () {
  "use strict";
  var kind = document.getElementById("id_kind"), seats = document.getElementById("id_seats");
  var dataNode = document.getElementById("kind-data");
  if (!kind || !seats || !dataNode) return;
  var games = JSON.parse(dataNode.textContent);
  var about = document.getElementById("game-about");

  // The description goes right under the game list, where the eye is when choosing.
  var kindField = kind.closest(".field");
  if (about && kindField) kindField.appendChild(about);

  function game() { return games[kind.value] || { min: 1, max: 8, levels: [] }; }

  function syncAbout() {
    if (!about) return;
    about.querySelectorAll("[data-kind]").forEach(function (p) { p.hidden = p.dataset.kind !== kind.value; });
  }

  function syncOptions() {
    document.querySelectorAll("fieldset.options").forEach(function (fs) {
      var on = fs.dataset.kind === kind.value;
      fs.hidden = !on;
      fs.querySelectorAll("input,select,textarea").forEach(function (i) { i.disabled = !on; });
    });
  }

  // Keep the count within the game's range. A count nobody typed follows the game (its fewest
  // players, as the form opened); a typed one the game cannot take moves to its nearest end.
  var typed = false;
  function syncSeatCount(gameChanged) {
    var g = game(), n = parseInt(seats.value, 10);
    seats.min = g.min; seats.max = g.max;
    if (gameChanged && !typed) seats.value = g.min;
    else if (isNaN(n) || n < g.min) seats.value = g.min;
    else if (n > g.max) seats.value = g.max;
    seats.readOnly = g.min === g.max;
  }

  function syncSeatRows() {
    var g = game(), n = Math.min(parseInt(seats.value, 10) || 0, g.max);
    document.querySelectorAll("select.computer-seat").forEach(function (s) {
      var on = parseInt(s.dataset.seat, 10) < n;
      s.closest(".field").hidden = !on;
      s.disabled = !on;
      Array.prototype.forEach.call(s.options, function (o) {
        o.disabled = o.value !== "" && g.levels.indexOf(o.value) < 0;
        o.hidden = o.disabled;
      });
      if (s.selectedOptions.length && s.selectedOptions[0].disabled) s.value = "";
    });
  }

  kind.addEventListener("change", function () { syncAbout(); syncOptions(); syncSeatCount(true); syncSeatRows(); });
  seats.addEventListener("input", function () { typed = true; syncSeatRows(); });
  seats.addEventListener("change", function () { typed = true; syncSeatCount(false); syncSeatRows(); });
  syncAbout(); syncOptions(); syncSeatRows();
  // On opening, a count the game cannot take (a form sent back with an error) is left for the
  // error to explain; only a change of game moves it.
  seats.min = game().min; seats.max = game().max;
})();
