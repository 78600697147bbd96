// Write Yer Own designer: an effect editor built from the shared vocabulary, a live power
// check against the card's type budget, and a drawing canvas. textContent only.
(function () {
  "use strict";
  const form = document.getElementById("wyo-form");
  if (!form) return;
  const vocab = JSON.parse(document.getElementById("wyo-vocabulary").textContent);
  const checkUrl = JSON.parse(document.getElementById("wyo-check-url").textContent);
  const csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  const sides = { primary: [], secondary: [] };

  function node(tag, props, text) {
    const el = Object.assign(document.createElement(tag), props || {});
    if (text !== undefined) el.textContent = String(text);
    return el;
  }
  const pretty = (s) => String(s).replace(/_/g, " ");

  function defaults(op) {
    const effect = { op };
    for (const [name, kind] of Object.entries(vocab.ops[op])) {
      effect[name] = kind[0] === "int" ? Math.max(kind[1], Math.min(1, kind[2])) : kind[1];
    }
    return effect;
  }

  function paramInput(effect, name, kind, side) {
    let input;
    if (kind[0] === "int") {
      input = node("input", { type: "number", min: kind[1], max: kind[2], value: effect[name] });
      input.addEventListener("input", () => { effect[name] = parseInt(input.value, 10); sync(side); });
    } else {
      input = node("select");
      for (const choice of kind.slice(1)) input.append(node("option", { value: choice, selected: effect[name] === choice }, pretty(choice)));
      input.addEventListener("change", () => { effect[name] = input.value; sync(side); });
    }
    input.setAttribute("aria-label", `${pretty(effect.op)} ${pretty(name)}`);
    input.dataset.param = name;
    return node("label", {}, `${pretty(name)} `).appendChild(input).parentNode;
  }

  function render(side) {
    const editor = form.querySelector(`.effects-editor[data-side=${side}]`);
    const rows = sides[side].map((effect, index) => {
      const li = node("li", { className: "effect-row" });
      li.append(node("strong", {}, pretty(effect.op)));
      for (const [name, kind] of Object.entries(vocab.ops[effect.op])) li.append(" ", paramInput(effect, name, kind, side));
      const remove = node("button", { type: "button", className: "remove" }, "Remove");
      remove.addEventListener("click", () => { sides[side].splice(index, 1); render(side); sync(side); });
      li.append(" ", remove);
      return li;
    });
    editor.querySelector(".effect-rows").replaceChildren(...rows);
    editor.querySelector(".add-op").disabled = sides[side].length >= vocab.max;
  }

  function sync(side) {
    form.querySelector(`input[name=${side}]`).value = JSON.stringify(sides[side]);
    check();
  }

  for (const side of Object.keys(sides)) {
    const hidden = form.querySelector(`input[name=${side}]`);
    try { sides[side] = JSON.parse(hidden.value || "[]"); } catch (e) { sides[side] = []; }
    const select = form.querySelector(`.effects-editor[data-side=${side}] .add-op`);
    for (const op of Object.keys(vocab.ops)) select.append(node("option", { value: op }, pretty(op)));
    select.addEventListener("change", () => {
      if (!select.value) return;
      sides[side].push(defaults(select.value));
      select.value = "";
      render(side);
      sync(side);
    });
    render(side);
  }

  // -- live check ---------------------------------------------------------------------
  let timer = null;
  let seq = 0;
  function check() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const mine = ++seq;
      const data = {};
      for (const name of ["type", "title", "grail", "combat", "wits", "quote", "primary", "secondary"]) {
        data[name] = form.elements[name].value;
      }
      for (const name of ["castle_icon", "unique"]) data[name] = form.elements[name].checked;
      const response = await fetch(checkUrl, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: JSON.stringify(data),
      });
      const result = await response.json();
      if (mine !== seq) return;
      const errors = result.errors || [result.error];
      document.getElementById("wyo-live-errors").replaceChildren(...errors.map((e) => node("li", {}, e)));
      const bar = document.getElementById("power-bar");
      const text = document.getElementById("power-text");
      if (result.power !== null && result.power !== undefined && result.budget) {
        const share = Math.min(100, Math.round((100 * result.power) / result.budget));
        bar.style.width = `${share}%`;
        bar.className = result.power > result.budget ? "over" : "";
        text.textContent = `Power ${result.power} of ${result.budget} allowed for this type.`;
      } else {
        bar.style.width = "0";
        text.textContent = errors.length ? "Fix the design to see its power." : "";
      }
    }, 250);
  }
  form.addEventListener("input", check);
  form.addEventListener("change", check);

  // -- drawing ------------------------------------------------------------------------
  const canvas = document.getElementById("wyo-canvas");
  const ctx = canvas.getContext("2d");
  let drawn = false;
  let drawing = false;
  ctx.fillStyle = "#fffdf7";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.lineWidth = 3;
  ctx.lineCap = "round";
  function point(event) {
    const box = canvas.getBoundingClientRect();
    return [(event.clientX - box.left) * (canvas.width / box.width), (event.clientY - box.top) * (canvas.height / box.height)];
  }
  canvas.addEventListener("pointerdown", (event) => {
    drawing = true;
    drawn = true;
    canvas.setPointerCapture(event.pointerId);
    ctx.strokeStyle = document.getElementById("canvas-ink").value;
    ctx.beginPath();
    ctx.moveTo(...point(event));
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!drawing) return;
    ctx.lineTo(...point(event));
    ctx.stroke();
  });
  canvas.addEventListener("pointerup", () => { drawing = false; });
  document.getElementById("canvas-clear").addEventListener("click", () => {
    ctx.fillStyle = "#fffdf7";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    drawn = false;
  });
  form.addEventListener("submit", (event) => {
    if (!window.confirm("Write this card for good? A written card cannot be changed.")) {
      event.preventDefault();
      return;
    }
    form.elements.picture_drawn.value = drawn ? canvas.toDataURL("image/png") : "";
  });
  check();
})();
