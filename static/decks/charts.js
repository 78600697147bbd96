// Small SVG bar charts drawn by hand (no library, no build step). Labels go in as textContent.
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";

  function el(name, attrs, text) {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  // data: array of [label, value]; draws vertical bars with the value above each bar.
  function bars(svg, data, options) {
    const opts = Object.assign({ width: 300, height: 130, color: "#8b1e1e" }, options || {});
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", `0 0 ${opts.width} ${opts.height}`);
    if (!data.length) {
      svg.appendChild(el("text", { x: 8, y: 20, "font-size": 12, fill: "#7a6e5f" }, "nothing yet"));
      return;
    }
    const max = Math.max(1, ...data.map((d) => d[1]));
    const slot = opts.width / data.length;
    const barWidth = Math.max(4, slot * 0.7);
    const plot = opts.height - 34;
    data.forEach(([label, value], i) => {
      const h = Math.round((value / max) * plot);
      const x = i * slot + (slot - barWidth) / 2;
      const y = 14 + plot - h;
      const rect = el("rect", { x, y, width: barWidth, height: h, fill: opts.color, rx: 2 });
      rect.appendChild(el("title", {}, `${label}: ${value}`));
      svg.appendChild(rect);
      if (value) svg.appendChild(el("text", { x: x + barWidth / 2, y: y - 3, "text-anchor": "middle", "font-size": 10 }, value));
      svg.appendChild(el("text", { x: x + barWidth / 2, y: opts.height - 6, "text-anchor": "middle", "font-size": 9, fill: "#2b2118" }, label));
    });
  }

  // data: array of [label, value]; one horizontal bar a row with its label in full on the
  // left (room measured from the longest label), the value after the bar.
  function rows(svg, data, options) {
    const opts = Object.assign({ width: 300, row: 18, color: "#8b1e1e", font: 11 }, options || {});
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const height = Math.max(24, data.length * opts.row + 4);
    svg.setAttribute("viewBox", `0 0 ${opts.width} ${height}`);
    if (!data.length) {
      svg.appendChild(el("text", { x: 8, y: 16, "font-size": 12, fill: "#7a6e5f" }, "nothing yet"));
      return;
    }
    const longest = Math.max(...data.map((d) => String(d[0]).length));
    const labelWidth = Math.min(opts.width * 0.5, Math.ceil(longest * opts.font * 0.6) + 8);
    const room = opts.width - labelWidth - 28;
    const max = Math.max(1, ...data.map((d) => d[1]));
    data.forEach(([label, value], i) => {
      const y = 2 + i * opts.row;
      const w = Math.max(1, Math.round((value / max) * room));
      svg.appendChild(el("text", { x: labelWidth - 6, y: y + opts.row * 0.7, "text-anchor": "end", "font-size": opts.font,
                                   fill: "#2b2118", class: "chart-label" }, label));
      const rect = el("rect", { x: labelWidth, y: y + 2, width: w, height: opts.row - 5, fill: opts.color, rx: 2 });
      rect.appendChild(el("title", {}, `${label}: ${value}`));
      svg.appendChild(rect);
      svg.appendChild(el("text", { x: labelWidth + w + 4, y: y + opts.row * 0.7, "font-size": opts.font - 1 }, value));
    });
  }

  window.DeckCharts = { bars, rows };
})();
