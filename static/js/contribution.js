/* A player's share in a game's chance (docs/verify.md, "Committed shuffles"): 16 random bytes
   from this browser's own random source, sent in hex when they create or join a game. The
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
})();
