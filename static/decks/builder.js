// The deck builder: search the card database, add and remove cards (beyond what you own, the
// deck is a wish list until you have them),
// live validation with reasons, statistics, a sample opening, save. DOM is built with
// createElement/textContent only; card text written by players is never parsed as HTML.
(function () {
  "use strict";
  const initial = JSON.parse(document.getElementById("deck-initial").textContent);
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  const state = { name: initial.name, cards: Object.assign({}, initial.cards), known: initial.known, dirty: false };
  const $ = (id) => document.getElementById(id);
  const TYPE_SHORT = { questions_three: "Q3", write_yer_own: "WYO" };

  function node(tag, attrs, text) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") el.className = value;
      else if (key.startsWith("data-")) el.setAttribute(key, value);
      else el[key] = value;
    }
    if (text !== undefined && text !== null) el.textContent = String(text);
    return el;
  }

  function typeLabel(type) {
    return TYPE_SHORT[type] || type.charAt(0).toUpperCase() + type.slice(1);
  }

  function numbers(card) {
    const parts = [`G${card.grail}`];
    if (card.combat !== null) parts.push(`C${card.combat}`);
    if (card.wits !== null) parts.push(`W${card.wits}`);
    return parts.join(" ");
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error((data.error && data.error.message) || `Server error ${response.status}`);
    return data;
  }

  function debounce(fn, ms) {
    let timer = null;
    return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
  }

  // -- changing the deck ------------------------------------------------------------------
  function countOf(code) { return state.cards[code] || 0; }

  function change(code, delta) {
    const card = state.known[code];
    const next = countOf(code) + delta;
    if (!card || next < 0 || next > 99) return;
    if (next === 0) delete state.cards[code]; else state.cards[code] = next;
    state.dirty = true;
    setStatus(delta > 0 && next > card.owned
      ? `Unsaved changes. You own ${card.owned} of ${card.title}: the deck becomes a wish list until you have ${next}.`
      : "Unsaved changes");
    renderDeck();
    renderResults();
    analyse();
  }

  function setStatus(text) { $("save-status").textContent = text; }

  // -- search -----------------------------------------------------------------------------
  let lastResults = [];
  let searchSeq = 0;

  let lastTotal = 0;

  // A new query replaces the results; "More results" (more = true) appends the next page.
  async function search(more) {
    const seq = ++searchSeq;
    const q = $("search-q").value;
    const offset = more === true ? lastResults.length : 0;
    // "Only cards I own" is the server's filter, so the count it gives is the true one.
    const owned = $("only-owned").checked ? "&owned=1" : "";
    const url = `${initial.urls.search}?q=${encodeURIComponent(q)}&offset=${offset}${owned}`;
    const response = await fetch(url, { credentials: "same-origin" });
    const data = await response.json();
    if (seq !== searchSeq) return; // a newer search is on its way
    for (const card of data.cards) state.known[card.code] = card;
    lastResults = offset ? lastResults.concat(data.cards) : data.cards;
    lastTotal = data.total;
    $("search-summary").textContent = `${data.total} card${data.total === 1 ? "" : "s"} match${data.total > lastResults.length ? `; showing ${lastResults.length}` : ""}`;
    const errors = $("search-errors");
    errors.replaceChildren(...data.errors.map((e) => node("li", {}, e)));
    renderResults();
  }

  function renderResults() {
    const onlyOwned = $("only-owned").checked;
    const items = lastResults.map((card) => {
      const li = node("li", { class: "result" });
      const add = node("button", { type: "button", class: "add", title: `Add ${card.title}`, "data-code": card.code }, "+");
      add.setAttribute("aria-label", `Add ${card.title}`);
      add.addEventListener("click", () => change(card.code, 1));
      const title = node("a", { href: card.url, target: "_blank", class: "title" }, card.title);
      const meta = node("span", { class: "muted meta" }, `${typeLabel(card.type)} · ${numbers(card)} · ${card.rarity} · own ${card.owned}`);
      li.append(add, title, meta);
      if (card.text || card.effects) li.append(node("div", { class: "text" }, card.text || card.effects));
      return li;
    });
    if (!items.length) items.push(node("li", { class: "muted" }, onlyOwned ? "No owned card matches." : "No card matches."));
    if (lastTotal > lastResults.length) {
      const more = node("button", { type: "button", class: "more" }, "More results");
      more.addEventListener("click", () => search(true));
      items.push(node("li", {}, undefined));
      items[items.length - 1].append(more);
    }
    $("search-results").replaceChildren(...items);
  }

  // -- the deck list ----------------------------------------------------------------------
  function renderDeck() {
    const entries = Object.entries(state.cards).map(([code, n]) => [state.known[code] || { code, title: code, type: "?", grail: "?", combat: null, wits: null, owned: 0 }, n]);
    entries.sort((a, b) => a[0].type.localeCompare(b[0].type) || a[0].title.localeCompare(b[0].title));
    let total = 0;
    let currentType = null;
    const items = [];
    for (const [card, n] of entries) {
      total += n;
      if (card.type !== currentType) {
        currentType = card.type;
        items.push(node("li", { class: "type-head" }, typeLabel(card.type)));
      }
      const li = node("li", { class: "deck-card", "data-code": card.code });
      const minus = node("button", { type: "button", class: "remove" }, "−");
      minus.setAttribute("aria-label", `Remove one ${card.title}`);
      minus.addEventListener("click", () => change(card.code, -1));
      const plus = node("button", { type: "button", class: "add" }, "+");
      plus.setAttribute("aria-label", `Add one ${card.title}`);
      plus.addEventListener("click", () => change(card.code, 1));
      li.append(node("span", { class: "qty" }, n), minus, plus, node("span", { class: "title" }, card.title),
        node("span", { class: "muted meta" }, numbers(card)));
      if (n > card.owned) {
        li.classList.add("wished");
        li.append(node("span", { class: "wish", "data-testid": "wished" }, `own ${card.owned}: wish list`));
      }
      items.push(li);
    }
    if (!items.length) items.push(node("li", { class: "muted" }, "Empty: add cards from the search."));
    $("deck-cards").replaceChildren(...items);
    $("deck-size").textContent = `${total} card${total === 1 ? "" : "s"}`;
  }

  // -- validation and statistics ----------------------------------------------------------
  let analyseSeq = 0;
  const analyse = debounce(async () => {
    const seq = ++analyseSeq;
    try {
      const result = await post(initial.urls.analyse, { cards: state.cards });
      if (seq !== analyseSeq) return;
      renderValidation(result);
      renderStats(result.stats);
    } catch (error) {
      $("validation").replaceChildren(node("p", { class: "error" }, error.message));
    }
  }, 150);

  function renderValidation(result) {
    const box = $("validation");
    box.className = `validation ${result.valid ? "ok" : "bad"}`;
    if (result.valid) {
      box.replaceChildren(node("p", { class: "verdict" }, "Playable deck ✓"));
    } else {
      box.replaceChildren(node("p", { class: "verdict" }, "Not playable yet:"),
        node("ul", {}, undefined));
      box.lastChild.append(...result.problems.map((p) => node("li", {}, p)));
    }
  }

  function renderStats(stats) {
    const bars = window.DeckCharts.bars;
    // Types by name in full, one row each (short vertical labels were cut).
    window.DeckCharts.rows($("chart-types"), Object.entries(stats.by_type).map(([t, n]) => [typeLabel(t), n]));
    bars($("chart-grail"), Object.entries(stats.grail), { color: "#c9a227" });
    bars($("chart-combat"), Object.entries(stats.combat), { color: "#b03a2e" });
    bars($("chart-wits"), Object.entries(stats.wits), { color: "#1f618d" });
  }

  // -- saving and the sample opening ------------------------------------------------------
  async function save() {
    const name = $("deck-name").value.trim();
    $("deck-save").disabled = true;
    try {
      const result = await post(initial.urls.save, { name, cards: state.cards });
      state.dirty = false;
      setStatus(`Saved as version ${result.version}`);
      document.title = `${result.name} · deck builder · grailsite`;
    } catch (error) {
      setStatus(`Not saved: ${error.message}`);
    } finally {
      $("deck-save").disabled = false;
    }
  }

  function miniCard(card) {
    const div = node("div", { class: "mini-card", title: card.text || "" });
    div.append(node("strong", {}, card.title), node("span", { class: "muted" }, `${typeLabel(card.type)} · ${numbers(card)}`));
    return div;
  }

  async function opening() {
    const box = $("opening");
    try {
      const result = await post(initial.urls.opening, { cards: state.cards });
      const parts = [];
      if (result.warnings && result.warnings.length) {
        parts.push(node("p", { class: "error" }, "This deck breaks the rules, so a game would refuse it:"),
          node("ul", { class: "errors", "data-testid": "opening-warnings" }));
        parts[parts.length - 1].append(...result.warnings.map((w) => node("li", {}, w)));
      }
      if (result.short) parts.push(node("p", { class: "error" }, "The deck is too small to lay out England and Avalon and draw a hand."));
      parts.push(node("h3", {}, "Set aside"), node("div", { class: "mini-row" }));
      parts[parts.length - 1].append(...result.aside.map(miniCard));
      parts.push(node("h3", {}, `England and Avalon (${result.areas.length})`), node("div", { class: "mini-grid", "data-testid": "opening-areas" }));
      parts[parts.length - 1].append(...result.areas.map(miniCard));
      parts.push(node("h3", {}, `Hand (${result.hand.length})`), node("div", { class: "mini-row", "data-testid": "opening-hand" }));
      parts[parts.length - 1].append(...result.hand.map(miniCard));
      box.replaceChildren(...parts);
    } catch (error) {
      box.replaceChildren(node("p", { class: "error" }, error.message));
    }
  }

  $("search-q").addEventListener("input", debounce(() => search(false), 200));
  $("only-owned").addEventListener("change", () => search(false));
  $("deck-save").addEventListener("click", save);
  $("sample-opening").addEventListener("click", opening);
  $("deck-name").addEventListener("input", () => { state.dirty = true; setStatus("Unsaved changes"); });
  window.addEventListener("beforeunload", (event) => { if (state.dirty) event.preventDefault(); });

  renderDeck();
  analyse();
  search(false);
})();
