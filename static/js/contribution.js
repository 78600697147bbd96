/* A player's share in a game's chance (docs/verify.md, "Committed shuffles"): 16 random bytes
   from this browser's own random source, sent in hex when they create or join a game (or,
   for a game set up as it is created, from its page once that shows the commitment). The
   site publishes them at once and mixes them into the game's seed with its secret, so the
   site alone cannot choose the seed. Fresh bytes for every form sent. */
(function () {
  "use strict";
  function fresh() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }
  function fill(root) {
    Array.prototype.forEach.call(root.querySelectorAll("input[data-contribution]"), function (input) {
      input.value = fresh();
    });
  }
  // Capturing: filled before any other submit handler reads the form.
  document.addEventListener("submit", function (event) {
    if (event.target && event.target.querySelectorAll) fill(event.target);
  }, true);
  window.GrailContribution = fresh;
  // A game waiting for the deal (every seat filled as it was created): this page has shown
  // its commitment, so the player's bytes go now, and the game is dealt with them.
  Array.prototype.forEach.call(document.querySelectorAll("form[data-send-contribution]"), function (form) {
    if (form.requestSubmit) { form.requestSubmit(); } else { fill(form); form.submit(); }
  });
})();
