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

  window.DeckCharts = { bars };
})();
