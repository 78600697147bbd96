// The admin's effect editor: under each effects field, an "add effect" picker that inserts a
// well-formed piece, and live reasons / readable text checked by the server against the
// shared vocabulary (one source of truth). textContent only.
(function () {
  "use strict";
  const script = document.currentScript;
  const checkUrl = script.dataset.checkUrl;
  const ops = JSON.parse(document.getElementById("effect-ops").textContent || "{}");
  const csrf = (document.querySelector("input[name=csrfmiddlewaretoken]") || {}).value;

  function skeleton(op) {
    const effect = { op };
    for (const [name, kind] of Object.entries(ops[op])) {
      effect[name] = kind[0] === "int" ? Math.max(kind[1], Math.min(1, kind[2])) : kind[1];
    }
    return effect;
  }

  function attach(textarea) {
    const box = document.createElement("div");
    box.className = "effect-helper";
    const select = document.createElement("select");
    select.append(new Option("Add an effect…", ""));
    for (const op of Object.keys(ops)) select.append(new Option(op.replace(/_/g, " "), op));
    const status = document.createElement("div");
    status.className = "effect-status";
    box.append(select, status);
    textarea.after(box);

    select.addEventListener("change", () => {
      if (!select.value) return;
      let list;
      try { list = JSON.parse(textarea.value || "[]"); } catch (e) { list = null; }
      if (!Array.isArray(list)) { status.textContent = "Fix the JSON before adding an effect."; return; }
      list.push(skeleton(select.value));
      textarea.value = JSON.stringify(list, null, 1);
      select.value = "";
      check();
    });

    let timer = null;
    async function check() {
      const response = await fetch(checkUrl, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: textarea.value || "[]",
      });
      const data = await response.json();
      status.style.color = data.errors && data.errors.length ? "#a11" : "#2e7d32";
      status.textContent = data.errors && data.errors.length ? data.errors.join(" ") : (data.text || "No effects.");
    }
    textarea.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(check, 300); });
    check();
  }

  for (const name of ["primary", "secondary", "round_table_bonus"]) {
    const textarea = document.getElementById(`id_${name}`);
    if (textarea) attach(textarea);
  }
})();
