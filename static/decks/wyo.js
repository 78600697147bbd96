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

  function paramInput(effect, name, kind, onChange) {
    let input;
    if (kind[0] === "int") {
      input = node("input", { type: "number", min: kind[1], max: kind[2], value: effect[name] });
      input.addEventListener("input", () => { effect[name] = parseInt(input.value, 10); onChange(); });
    } else {
      input = node("select");
      for (const choice of kind.slice(1)) input.append(node("option", { value: choice, selected: effect[name] === choice }, pretty(choice)));
      input.addEventListener("change", () => { effect[name] = input.value; onChange(); });
    }
    input.setAttribute("aria-label", `${pretty(effect.op)} ${pretty(name)}`);
    input.dataset.param = name;
    return node("label", {}, `${pretty(name)} `).appendChild(input).parentNode;
  }

  // One list of effect pieces edited in place inside ``container`` (a .effect-rows list and
  // an .add-op picker). Used for both sides of the card and for every village row.
  function mountEffects(container, list, onChange, label) {
    const rows = container.querySelector(".effect-rows");
    const select = container.querySelector(".add-op");
    if (select.options.length <= 1) {
      for (const op of Object.keys(vocab.ops)) select.append(node("option", { value: op }, pretty(op)));
    }
    function redraw() {
      rows.replaceChildren(...list.map((effect, index) => {
        const li = node("li", { className: "effect-row" });
        li.append(node("strong", {}, pretty(effect.op)));
        for (const [name, kind] of Object.entries(vocab.ops[effect.op] || {})) li.append(" ", paramInput(effect, name, kind, onChange));
        const remove = node("button", { type: "button", className: "remove" }, "Remove");
        remove.setAttribute("aria-label", `Remove ${pretty(effect.op)} from ${label}`);
        remove.addEventListener("click", () => { list.splice(index, 1); redraw(); onChange(); });
        li.append(" ", remove);
        return li;
      }));
      select.disabled = list.length >= vocab.max;
    }
    select.addEventListener("change", () => {
      if (!select.value) return;
      list.push(defaults(select.value));
      select.value = "";
      redraw();
      onChange();
    });
    redraw();
  }

  function readHidden(name, fallback) {
    try {
      const value = JSON.parse(form.elements[name].value || "null");
      return Array.isArray(value) ? value : fallback;
    } catch (e) {
      return fallback;
    }
  }

  for (const side of Object.keys(sides)) {
    sides[side] = readHidden(side, []);
    const sync = () => { form.elements[side].value = JSON.stringify(sides[side]); check(); };
    mountEffects(form.querySelector(`.effects-editor[data-side=${side}]`), sides[side], sync, `${side} effects`);
  }

  // -- castle and village tables ------------------------------------------------------
  const limits = JSON.parse(document.getElementById("wyo-tables").textContent);
  const [openMin, openMax] = limits.open;
  const [grailMin, grailMax] = limits.grail;
  const tables = {
    castle_table: readHidden("castle_table", [
      { min: openMin, max: 4, result: "no_pass" }, { min: 5, max: openMax, result: "pass" }]),
    village_table: readHidden("village_table", [
      { min: grailMin, max: 3, effects: [], text: "" }, { min: 4, max: grailMax, effects: [], text: "" }]),
  };
  const bounds = { castle_table: [openMin, openMax], village_table: [grailMin, grailMax] };

  function boundInput(row, key, name, onChange) {
    const [lo, hi] = bounds[name];
    const input = node("input", { type: "number", min: lo, max: hi, value: row[key] });
    input.dataset.bound = key;
    input.addEventListener("input", () => { row[key] = parseInt(input.value, 10); onChange(); });
    return input;
  }

  function tableRow(name, row, index, onChange) {
    const tr = node("tr", { className: "table-row" });
    const from = boundInput(row, "min", name, onChange);
    const to = boundInput(row, "max", name, onChange);
    from.setAttribute("aria-label", `Row ${index + 1} from`);
    to.setAttribute("aria-label", `Row ${index + 1} to`);
    tr.append(node("td").appendChild(from).parentNode, node("td").appendChild(to).parentNode);
    const what = node("td");
    if (name === "castle_table") {
      const result = node("select", { className: "row-result" });
      result.setAttribute("aria-label", `Row ${index + 1} result`);
      for (const choice of limits.castle_results) {
        result.append(node("option", { value: choice, selected: row.result === choice }, pretty(choice)));
      }
      result.addEventListener("change", () => { row.result = result.value; onChange(); });
      what.append(result);
    } else {
      const text = node("input", { type: "text", className: "row-text", maxLength: limits.max_row_text, value: row.text || "",
                                    placeholder: "What the players read" });
      text.setAttribute("aria-label", `Row ${index + 1} text`);
      text.addEventListener("input", () => { row.text = text.value; onChange(); });
      const effects = node("div", { className: "row-effects" });
      effects.append(node("ul", { className: "effect-rows" }),
                     node("select", { className: "add-op" }));
      effects.querySelector(".add-op").append(node("option", { value: "" }, "Add an effect…"));
      effects.querySelector(".add-op").setAttribute("aria-label", `Add an effect to row ${index + 1}`);
      row.effects = Array.isArray(row.effects) ? row.effects : [];
      mountEffects(effects, row.effects, onChange, `row ${index + 1}`);
      what.append(text, effects);
    }
    what.append(node("ul", { className: "errors row-errors" }));
    tr.append(what);
    return tr;
  }

  function renderTable(name) {
    const editor = form.querySelector(`.table-editor[data-table=${name}]`);
    const rows = tables[name];
    const sync = () => { form.elements[name].value = JSON.stringify(rows); check(); };
    editor.querySelector("tbody").replaceChildren(...rows.map((row, index) => {
      const tr = tableRow(name, row, index, sync);
      const remove = node("button", { type: "button", className: "remove" }, "Remove");
      remove.setAttribute("aria-label", `Remove row ${index + 1}`);
      remove.disabled = rows.length <= 1;
      remove.addEventListener("click", () => { rows.splice(index, 1); renderTable(name); sync(); });
      tr.append(node("td").appendChild(remove).parentNode);
      return tr;
    }));
    editor.querySelector(".add-row").disabled = rows.length >= limits.max_rows;
    form.elements[name].value = JSON.stringify(rows);
  }

  for (const name of Object.keys(tables)) {
    const editor = form.querySelector(`.table-editor[data-table=${name}]`);
    editor.append(node("ul", { className: "errors table-errors" }));
    editor.querySelector(".add-row").addEventListener("click", () => {
      const rows = tables[name];
      if (rows.length >= limits.max_rows) return;
      const [lo, hi] = bounds[name];
      const last = rows.length ? rows[rows.length - 1] : null;
      const start = Math.min(hi, last && Number.isInteger(last.max) ? last.max + 1 : lo);
      rows.push(name === "castle_table" ? { min: start, max: hi, result: "pass" } : { min: start, max: hi, effects: [], text: "" });
      renderTable(name);
      check();
    });
    renderTable(name);
  }

  // The card module names a table's bad row ("village_table row 2: ..."); show each reason
  // beside its row, and whole-table reasons (gaps, overlaps) under the table.
  const ROW_ERROR = /^'?(castle_table|village_table) row (\d+)\b/;
  const TABLE_ERROR = /^(castle_table|village_table): (.*)$/;
  const TABLE_NAMES = { castle_table: "Castle table", village_table: "Village table" };
  // Display only: the reasons stay the card module's, with the field names made readable.
  // Beside its row a reason need not repeat which table and row it is about.
  const readable = (error) => String(error).replace(/(castle_table|village_table)/g, (t) => TABLE_NAMES[t]);
  const besideRow = (error) => String(error)
    .replace(/^'?(castle_table|village_table) row (\d+)( text)?'?(:?)/, (m, t, n, text, colon) => `Row ${n}${text || ""}${colon}`);
  function placeTableErrors(errors) {
    for (const list of form.querySelectorAll(".row-errors, .table-errors")) list.replaceChildren();
    for (const error of errors) {
      let match = ROW_ERROR.exec(error);
      if (match) {
        const tr = form.querySelectorAll(`.table-editor[data-table=${match[1]}] tbody tr`)[Number(match[2]) - 1];
        if (tr) tr.querySelector(".row-errors").append(node("li", {}, besideRow(error)));
        continue;
      }
      match = TABLE_ERROR.exec(error);
      if (match) form.querySelector(`.table-editor[data-table=${match[1]}] .table-errors`).append(node("li", {}, match[2]));
    }
  }

  // -- what the chosen type offers ----------------------------------------------------
  function showForType() {
    const kind = form.elements.type.value;
    for (const el of form.querySelectorAll("[data-types]")) {
      const part = el.name ? el.closest(".field") || el : el;
      part.hidden = !el.dataset.types.split(" ").includes(kind);
    }
  }
  form.elements.type.addEventListener("change", showForType);
  showForType();

  // -- live check ---------------------------------------------------------------------
  let timer = null;
  let seq = 0;
  const SKIP = ["csrfmiddlewaretoken", "picture_upload", "picture_drawn"];
  function check() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const mine = ++seq;
      const data = {};
      for (const el of form.elements) {
        if (!el.name || SKIP.includes(el.name)) continue;
        data[el.name] = el.type === "checkbox" ? el.checked : el.value;
      }
      const response = await fetch(checkUrl, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: JSON.stringify(data),
      });
      const result = await response.json();
      if (mine !== seq) return;
      const errors = result.errors || [result.error];
      document.getElementById("wyo-live-errors").replaceChildren(...errors.map((e) => node("li", {}, readable(e))));
      placeTableErrors(errors);
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
  // No reasons before the author has typed or chosen anything (a blank form is not wrong
  // yet); a form sent back by the server with its errors is checked at once.
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
  if (form.dataset.bound === "1") check();
})();
