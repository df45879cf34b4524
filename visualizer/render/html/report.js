/* report.js: draws the memtime report page (html.c embeds it) from the JSON
 * document in #memtime-data (json.c's --json keys plus "timeline" and
 * "trees") and, for every grouping the page offers (--group-by), the
 * documents in #memtime-groups: choosing a grouping draws the page again
 * from that grouping's document (the timeline's bands, the legend, the
 * site lists), keeping the selected snapshot, with no reload; the trees
 * are the file's under every grouping. Plain DOM, no framework. Every name from the profile is
 * untrusted: it goes into the page only through textContent or an
 * attribute value set with setAttribute, never through innerHTML. */
(function () {
  "use strict";
  /* The default grouping's document (with the trees) and its timeline's
   * columns, by the PNG's drawing rule (html.c). */
  var D0 = JSON.parse(document.getElementById("memtime-data").textContent);
  var C0 = JSON.parse(document.getElementById("memtime-columns").textContent);
  /* The groupings: [{by, default, data, columns, snapshot_sites}], data
   * and columns absent for the default one (D0, C0). */
  var GR = JSON.parse(document.getElementById("memtime-groups").textContent);
  var app = document.getElementById("app");
  var SVGNS = "http://www.w3.org/2000/svg";
  var TR = D0.trees, trees = {};
  TR.snapshots.forEach(function (t) { trees[t.snapshot] = t; });
  var GROUP_WORDS = { site: "site", "function": "function", file: "source file",
    object: "object (library or executable)", crate: "crate", namespace: "namespace" };
  var cur = -1, selectNow = null;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function sv(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function commify(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function fmtB(b) {
    var u = ["B", "KiB", "MiB", "GiB", "TiB"], i = 0;
    while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
    return (i ? b.toFixed(b < 10 ? 2 : 1) : String(b)) + " " + u[i];
  }
  function fmtTick(v, unit) {
    var names = { 1: "B", 1024: "KiB", 1048576: "MiB", 1073741824: "GiB" };
    return +(v / unit).toFixed(2) + " " + (names[unit] || "TiB");
  }
  function exactB(b) { return commify(b) + " B"; }
  function pct(part, whole) { return whole ? (100 * part / whole).toFixed(2) + "%" : "-"; }
  function fmtT(t) {
    if (D0.time_unit === "ms") return t >= 1000 ? (t / 1000).toFixed(t >= 100000 ? 0 : 2) + " s" : t + " ms";
    if (D0.time_unit === "B") return fmtB(t) + " allocated";
    return commify(t) + " instr";
  }
  function section(title, id) {
    var s = add(app, el("section", { id: id, "aria-labelledby": id + "-h" }));
    add(s, el("h2", { id: id + "-h" }, title));
    return s;
  }
  /* rows: [term, text], or [term, parts]: strings, and {text, title} for a
   * short name with its full name on hover. */
  function facts(parent, rows) {
    var dl = add(parent, el("dl", { "class": "facts" }));
    rows.forEach(function (r) {
      add(dl, el("dt", null, r[0]));
      if (!Array.isArray(r[1])) { add(dl, el("dd", null, r[1])); return; }
      var dd = add(dl, el("dd"));
      r[1].forEach(function (p) {
        add(dd, typeof p === "string" ? document.createTextNode(p) : el("span", { title: p.title }, p.text));
      });
    });
    return dl;
  }
  function table(parent, heads, rows) {
    var t = add(parent, el("table")), tr = add(add(t, el("thead")), el("tr"));
    heads.forEach(function (h) { add(tr, el("th", { "class": h[1] || "", scope: "col" }, h[0])); });
    var tb = add(t, el("tbody"));
    rows.forEach(function (r) {
      var row = add(tb, el("tr"));
      /* A cell {text, title}: a site's short name, its full name on hover. */
      r.forEach(function (c, i) {
        var o = c !== null && typeof c === "object";
        add(row, el("td", o ? { "class": heads[i][1] || "", title: c.title } : { "class": heads[i][1] || "" },
          o ? c.text : c));
      });
    });
    return t;
  }

  /* What the allocator holds freed, by its names, from its reading at t:
   * jemalloc's dirty and muzzy pages and retained address space, tcmalloc's
   * free pages, cached blocks and unmapped pages, mimalloc's commit beyond
   * the heap, glibc's free chunks (those at the top and in holes). */
  function heldParts(A, t) {
    var r = null;
    A.stats.forEach(function (x) { if (x.time === t) r = x; });
    if (!r) return "";
    if ("resident_bytes" in r)
      return "; " + A.name + " holds freed: dirty pages " + fmtB(r.dirty_bytes || 0) + ", muzzy pages " +
        fmtB(r.muzzy_bytes || 0) + ", partly used pages " +
        fmtB(Math.max(0, (r.active_bytes || 0) - (r.allocated_bytes || 0))) + ", metadata " + fmtB(r.metadata_bytes || 0) + "; retained (unmapped) " +
        fmtB(r.retained_bytes || 0);
    if ("heap_size_bytes" in r) {
      var ca = (r.central_cache_free_bytes || 0) + (r.transfer_cache_free_bytes || 0) + (r.thread_cache_free_bytes || 0);
      return "; " + A.name + " holds freed: free pages in its page heap " + fmtB(r.pageheap_free_bytes || 0) +
        ", free blocks in its caches " + fmtB(ca) + ", metadata " + fmtB(r.metadata_bytes || 0) +
        "; unmapped (returned) " + fmtB(r.pageheap_unmapped_bytes || 0);
    }
    if ("committed_bytes" in r)
      return "; " + A.name + " holds freed: committed " +
        fmtB(Math.max(0, r.committed_bytes - (r.allocated_bytes || 0))) + " beyond the heap (its commit " +
        fmtB(r.committed_bytes) + "; the heap by memtime's count)";
    var fr = r.free_bytes || 0, top = r.top_releasable_bytes || 0;
    return "; " + A.name + " holds freed: free chunks " + fmtB(fr) + ", " + fmtB(top) +
      " of them at the top (trimmable), " + fmtB(fr > top ? fr - top : 0) + " in holes";
  }

  function draw(gi) {
  var G = GR[gi], D = G.data || D0, C = G.columns || C0;
  var S = D.timeline.snapshots, B = D.timeline.bands, SS = {};
  G.snapshot_sites.forEach(function (t) { SS[t.snapshot] = t.sites; });
  while (app.firstChild) app.removeChild(app.firstChild);
  app.setAttribute("data-group-by", G.by);
  /* ---- header and summary ---- */
  document.title = "memtime: " + (D.command || D.profile);
  add(app, el("h1", null, "memtime report"));
  add(app, el("p", { "class": "cmd" }, D.command || "(no command)"));
  add(app, el("p", { "class": "note" }, "Profile: " + D.profile));
  var sum = section("Summary", "summary");
  var pk = D.peak;
  var rows = [
    ["Duration", fmtT(D.duration)],
    ["Snapshots", D.snapshots + " (" + D.detailed_snapshots + " with an allocation tree)"],
    ["Peak", fmtB(pk.total_bytes) + " (" + exactB(pk.total_bytes) + ") at " + fmtT(pk.time) +
      ", snapshot " + pk.snapshot],
    ["Peak split", "heap " + fmtB(pk.heap_bytes) + ", extra " + fmtB(pk.extra_bytes) +
      ", stacks " + fmtB(pk.stacks_bytes)],
    ["End", D.ended_by_exit ? "the program exited" :
      "the program did not exit normally (killed, or still running): the profile ends at its last snapshot"]
  ];
  if (D.rss && D.rss.peak)
    rows.push(["Resident (RSS) peak", fmtB(D.rss.peak.total_bytes) + " at " + fmtT(D.rss.peak.time) +
      " (heap " + fmtB(D.rss.peak.heap_bytes) + " then)"]);
  /* The RSS by the program's own allocator's account (json.c, rss_split):
   * the summary's line, so a reader sees what the gap is made of. */
  var AS = D.allocator && D.allocator.rss_split;
  if (AS)
    rows.push(["RSS by " + D.allocator.name + "'s account", fmtB(AS.rss_bytes) + " = heap " +
      fmtB(AS.heap_bytes) + " + " + D.allocator.name + " holds freed " + fmtB(AS.held_bytes) +
      " + outside " + D.allocator.name + " " + fmtB(AS.outside_bytes) + " (the RSS at " + fmtT(AS.time) +
      (AS.snapshot === null ? "" : ", snapshot " + AS.snapshot) + ", where " + D.allocator.name + " holds the most freed)" +
      heldParts(D.allocator, AS.stats_time)]);
  var HL = D.heap_limit;
  if (HL)
    rows.push(["Heap limit", fmtB(HL.bytes) + " (--heap-limit-action=" + HL.action + "): " +
      (HL.time === null ? "never reached" : "reached at " + fmtT(HL.time) +
       (HL.action === "kill" ? ", where memtime ended the program with SIGKILL" :
        HL.action === "fail" ? ", " + HL.refused + " allocation(s) refused" : ", a detailed snapshot taken"))]);
  var GD = D.grouping;
  rows.push(["Sites grouped by", GROUP_WORDS[G.by] + (G["default"] ? (GD.by_default ? " (the default for this profile)" :
    " (--group-by)") : "") + (GD.threshold > 0 ? (GD.fallback ? "; groups under " + GD.threshold +
    "% of a snapshot's heap fall back to their " + GD.fallback.join(", then their ") +
    " (\"other functions in ...\"), what is left merges" :
    "; groups under " + GD.threshold + "% of a snapshot's heap merge") : "")]);
  /* The wrappers: their short names (the full one on hover), the largest
   * first, as the text summary lists them. */
  if (GD.wrappers.length) {
    var WMAX = 8, parts = [];
    GD.wrappers.slice(0, WMAX).forEach(function (w, i) {
      if (i) parts.push(", ");
      parts.push({ text: w.name, title: w["function"] });
      parts.push(w.callers_are_sites ? "" : " (kept as a site)");
    });
    if (GD.wrappers.length > WMAX) parts.push(", and " + (GD.wrappers.length - WMAX) + " more");
    rows.push(["Allocation wrappers", [GD.wrappers.length + " found; their callers are the sites unless kept: "].concat(parts)]);
  }
  if (D.marks.length) rows.push(["Phase marks", D.marks.map(function (m) { return m.label; }).join(", ")]);
  facts(sum, rows);
  add(sum, el("p", { "class": "note" }, "Allocation trees are pruned as the text report prunes them: " +
    "a node under " + TR.threshold_percent + "% of its snapshot's total is left out with its " +
    "subtree, and nothing deeper than level " + TR.max_depth + " is kept."));

  /* ---- the timeline ---- */
  var tl = section("Timeline", "timeline");
  /* With C.panel (html.c: the RSS far above the heap) the main plot holds
   * the heap on its own scale, and a panel below (PT..PT+PH) the heap's
   * total and the RSS on one scale, as the PNG draws them. */
  var W = 1000, HM = 390, ML = C.x0, MR = W - C.x1, MT = 34, MB = 34;
  var PT = HM - MB + 34, PH = 120, H = C.panel ? PT + PH + MB : HM;
  var t0 = C.t0, t1 = C.t1;
  var ymax = Math.max(1, C.max);
  S.forEach(function (s) { ymax = Math.max(ymax, s.total_bytes); });
  var rss = D.rss && D.rss.readings.length ? D.rss.readings : null;
  if (rss && !C.panel) rss.forEach(function (r) { ymax = Math.max(ymax, r.total_bytes); });
  var pymax = 1.05 * Math.max(1, C.rss_max, ymax);
  /* The heap limit as the PNG draws it: when reached, or within a quarter above the data. */
  var showLimit = HL && (HL.time !== null || HL.bytes <= ymax * 1.25);
  if (showLimit) ymax = Math.max(ymax, HL.bytes);
  ymax *= 1.05;
  function X(i) { return t1 > t0 ? ML + (W - ML - MR) * (S[i].time - t0) / (t1 - t0)
                                 : ML + (W - ML - MR) * (S.length > 1 ? i / (S.length - 1) : 0.5); }
  function XT(t) { return t1 > t0 ? ML + (W - ML - MR) * (t - t0) / (t1 - t0) : ML; }
  function Y(b) { return MT + (HM - MT - MB) * (1 - b / ymax); }
  function YP(b) { return PT + PH * (1 - b / pymax); }
  var wrap = add(tl, el("div", { "class": "chart-wrap" }));
  var svg = add(wrap, sv("svg", { "class": "timeline", viewBox: "0 0 " + W + " " + H, tabindex: "0",
    role: "slider", "aria-label": "Memory over time; arrow keys move between snapshots",
    "aria-valuemin": "0", "aria-valuemax": String(S.length - 1),
    /* The mapping, for whoever measures the drawing (t626). */
    "data-x0": C.x0, "data-x1": C.x1, "data-t0": t0, "data-t1": t1, "data-y0": MT, "data-y1": HM - MB,
    "data-ymax": ymax, "data-exact": C.exact, "data-panel": C.panel }));
  if (C.panel) {
    svg.setAttribute("data-panel-y0", PT); svg.setAttribute("data-panel-y1", PT + PH);
    svg.setAttribute("data-panel-ymax", pymax);
  }
  /* The hatch of memory above the samples (the PNG's orange hatch). */
  var defs = add(svg, sv("defs"));
  var pat = add(defs, sv("pattern", { id: "outside-hatch", width: 6, height: 6,
    patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }));
  add(pat, sv("rect", { width: 6, height: 6, fill: "#fbe3d6" }));
  add(pat, sv("rect", { width: 2, height: 6, fill: "#d9703c" }));
  var g = add(svg, sv("g", { "class": "axis" }));
  /* Round ticks in the unit of the top (1, 2, 2.5 or 5 times a power of ten
   * KiB, MiB...), about five of them. */
  var unit = 1;
  while (unit * 1024 <= ymax) unit *= 1024;
  var raw = ymax / 5 / unit, p10 = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10)), step = 10 * p10;
  [1, 2, 2.5, 5, 10].some(function (m) { if (m * p10 >= raw) { step = m * p10; return true; } return false; });
  for (var k = 0, v = 0; v <= ymax; k++, v = k * step * unit) {
    var y = Y(v);
    add(g, sv("line", { "class": "grid", x1: ML, x2: W - MR, y1: y, y2: y }));
    add(g, sv("text", { x: ML - 6, y: y + 4, "text-anchor": "end" }, fmtTick(v, unit)));
  }
  for (k = 0; k <= 6; k++) {
    var tt = t0 + (t1 - t0) * k / 6;
    add(g, sv("text", { x: XT(tt), y: H - MB + 16, "text-anchor": k === 0 ? "start" : k === 6 ? "end" : "middle" },
      t1 > t0 ? fmtT(Math.round(tt)) : ""));
  }
  add(g, sv("line", { x1: ML, x2: W - MR, y1: Y(0), y2: Y(0) }));
  /* The columns, one SVG unit wide each (html.c: the PNG's rule for this
   * plot): each band stacked bottom first, the memory above the samples up
   * to the outline's top, and the outline (the total line) over the
   * column's lowest to highest, so a burst is a spike at its true height. */
  function colRect(k, ytop, ybot) {
    return "M" + (C.x0 + k) + " " + ytop.toFixed(1) + "h1V" + ybot.toFixed(1) + "h-1Z";
  }
  var bandD = B.map(function () { return []; }), outD = [], lineD = [];
  C.cols.forEach(function (c, k) {
    if (!c) return;
    var cum = 0;
    for (var b = 0; b < B.length; b++) {
      var v = c[3 + b];
      if (v > 0) bandD[b].push(colRect(k, Y(cum + v), Y(cum)));
      cum += v;
    }
    if (c[2] > 0) outD.push(colRect(k, Y(cum + c[2]), Y(cum)));
    lineD.push(colRect(k, Y(c[1]) - 1, Y(c[0]) + 1));
  });
  B.forEach(function (band, b) {
    var p = add(svg, sv("path", { "class": "band", d: bandD[b].join(""), fill: band.colour,
      "fill-opacity": band.kind === "unattributed" ? "0.45" : "1", "shape-rendering": "crispEdges" }));
    add(p, sv("title", null, band.full || band.name));
  });
  if (outD.length) {
    var po = add(svg, sv("path", { "class": "outside", d: outD.join(""), fill: "url(#outside-hatch)",
      "shape-rendering": "crispEdges" }));
    add(po, sv("title", null, "above the samples: the exact outline, no tree saw it"));
  }
  add(svg, sv("path", { "class": "outline", d: lineD.join(""), "shape-rendering": "crispEdges" }));
  /* Resident memory: each reading held until the next (steps), per column;
   * in the panel when there is one. */
  if (C.panel) {
    var pg = add(svg, sv("g", { "class": "axis panel-axis" }));
    var praw = pymax / 3, punit = 1;
    while (punit * 1024 <= pymax) punit *= 1024;
    praw /= punit;
    var pp10 = Math.pow(10, Math.floor(Math.log(praw) / Math.LN10)), pstep = 10 * pp10;
    [1, 2, 2.5, 5, 10].some(function (m) { if (m * pp10 >= praw) { pstep = m * pp10; return true; } return false; });
    for (var pk_ = 0, pv = 0; pv <= pymax; pk_++, pv = pk_ * pstep * punit) {
      add(pg, sv("line", { "class": "grid", x1: ML, x2: W - MR, y1: YP(pv), y2: YP(pv) }));
      add(pg, sv("text", { x: ML - 6, y: YP(pv) + 4, "text-anchor": "end" }, fmtTick(pv, punit)));
    }
    add(pg, sv("line", { x1: ML, x2: W - MR, y1: YP(0), y2: YP(0) }));
    var heapD = [], gapD = [];
    C.cols.forEach(function (c, k) { if (c) heapD.push(colRect(k, YP(c[1]), YP(0))); });
    if (C.rss) C.rss.forEach(function (r, k) {
      var c = C.cols[k], top = c ? c[1] : 0;
      if (r && r[1] > top) gapD.push(colRect(k, YP(r[1]), YP(top)));
    });
    var ph = add(svg, sv("path", { "class": "panel-heap", d: heapD.join(""), "shape-rendering": "crispEdges" }));
    add(ph, sv("title", null, "heap total (heap + extra + stacks), on the RSS's scale"));
    var pgap = add(svg, sv("path", { "class": "panel-gap", d: gapD.join(""), "shape-rendering": "crispEdges" }));
    add(pgap, sv("title", null, "resident memory the heap does not explain"));
    var ytop = YP(ymax);
    add(svg, sv("line", { "class": "panel-top", x1: ML, x2: W - MR, y1: ytop, y2: ytop }));
    add(svg, sv("text", { "class": "panel-top-label", x: ML + 4, y: ytop - 3 }, "top of the heap plot above: " + fmtB(ymax)));
    var RP = D.rss.peak;
    add(svg, sv("text", { "class": "panel-caption", x: ML, y: PT - 8 }, "Resident memory (RSS) and heap on one scale" +
      (RP ? ": RSS peak " + fmtB(RP.total_bytes) + " at " + fmtT(RP.time) + ", heap " +
       (RP.total_bytes ? Math.round(100 * RP.heap_bytes / RP.total_bytes) : 0) + "% of it" : "")));
  }
  /* What the program's own allocator holds freed (html.c: "held"), a band
   * on the heap's top under the RSS line, where the RSS is drawn. */
  if (C.held) {
    var hd = [], YH = C.panel ? YP : Y;
    C.held.forEach(function (h, k) { if (h) hd.push(colRect(k, YH(h[1]), YH(h[0]))); });
    var hp = add(svg, sv("path", { "class": "held", d: hd.join(""), "shape-rendering": "crispEdges" }));
    add(hp, sv("title", null, C.held_label + ": resident, freed by the program, kept by its allocator"));
  }
  if (C.rss) {
    var rd = [], YR = C.panel ? YP : Y;
    C.rss.forEach(function (r, k) { if (r) rd.push(colRect(k, YR(r[1]) - 1, YR(r[0]) + 1)); });
    add(svg, sv("path", { "class": "rssline", d: rd.join(""), "shape-rendering": "crispEdges" }));
    if (C.panel && D.rss.peak)
      add(svg, sv("circle", { "class": "rsspeak", cx: XT(D.rss.peak.time), cy: YP(D.rss.peak.total_bytes), r: 4 }));
  }
  if (showLimit) {
    var yl = Y(HL.bytes);
    add(svg, sv("line", { "class": "limit", x1: ML, x2: W - MR, y1: yl, y2: yl }));
    /* Labelled at the left: the peak, usually at the limit, is labelled at its own x. */
    add(svg, sv("text", { "class": "limit-label", x: ML + 4, y: yl - 4, "text-anchor": "start" },
      "heap limit " + fmtB(HL.bytes) + " (" + HL.action + ")"));
  }
  /* The hover cursor and the selection, under the labels. */
  var YB = C.panel ? YP(0) : Y(0);      /* down through the panel too */
  var cursor = add(svg, sv("line", { "class": "cursor", y1: MT, y2: YB, x1: -10, x2: -10 }));
  var selLine = add(svg, sv("line", { "class": "selected", y1: MT, y2: YB, x1: -10, x2: -10 }));
  D.marks.forEach(function (m, i) {
    var x = XT(m.time);
    add(svg, sv("line", { "class": "mark", x1: x, x2: x, y1: MT, y2: YB }));
    var lab = add(svg, sv("text", { x: x + 3, y: 10 + (i % 3) * 11 }, m.label));
    add(lab, sv("title", null, m.label + " at " + fmtT(m.time)));
  });
  var pi = pk.snapshot;
  add(svg, sv("circle", { "class": "peak", cx: X(pi), cy: Y(S[pi].total_bytes), r: 4 }));
  var pxp = X(pi);
  add(svg, sv("text", { x: pxp, y: Y(S[pi].total_bytes) - 8,
    "text-anchor": pxp > W - 90 ? "end" : pxp < ML + 90 ? "start" : "middle" }, "peak " + fmtB(pk.total_bytes)));
  var readout = add(wrap, el("div", { "class": "readout", hidden: "" }));
  /* The grouping selector: after the chart, so Tab reaches the chart first. */
  if (GR.length > 1) {
    var fs = add(tl, el("fieldset", { "class": "group-by" }));
    add(fs, el("legend", null, "Group the sites by"));
    GR.forEach(function (gr, k) {
      var lab = add(fs, el("label"));
      var inp = add(lab, el("input", { type: "radio", name: "group-by", value: gr.by, id: "group-by-" + gr.by }));
      inp.checked = k === gi;
      add(lab, document.createTextNode(" " + gr.by));
      inp.addEventListener("change", function () {
        if (!inp.checked) return;
        draw(k);
        var again = document.getElementById("group-by-" + gr.by);
        if (again) again.focus();
      });
    });
  }
  var legend = add(tl, el("ul", { "class": "legend" }));
  B.forEach(function (band) {
    var li = add(legend, el("li"));
    add(li, el("span", { "class": "swatch", style: "background:" + band.colour }));
    add(li, el("span", band.full ? { "class": "band-name", title: band.full } : { "class": "band-name" }, band.name));
  });
  var liT = add(legend, el("li"));
  add(liT, el("span", { "class": "swatch", style: "background:currentColor;height:3px" }));
  add(liT, el("span", null, "total (heap + extra + stacks)" + (C.exact ? ": the exact outline" : "")));
  if (C.exact) {
    var liO = add(legend, el("li"));
    add(liO, el("span", { "class": "swatch outside-swatch" }));
    add(liO, el("span", null, "above the samples (exact outline; no tree saw it)"));
  }
  if (C.rss) {
    var liR = add(legend, el("li"));
    add(liR, el("span", { "class": "swatch", style: "background:var(--rss);height:3px" }));
    add(liR, el("span", null, "resident memory (RSS), each reading held until the next" +
      (C.panel ? "; in the panel below, on one scale with the heap (the RSS is over twice the heap, " +
       "so the heap has its own scale above)" : "")));
  }
  if (C.held) {
    var liH = add(legend, el("li"));
    add(liH, el("span", { "class": "swatch held-swatch" }));
    add(liH, el("span", null, C.held_label + ": resident memory the program freed and its allocator keeps" +
      " (its own account, each reading held until the next)"));
  }
  add(tl, el("p", { "class": "note", id: "chart-footnote" }, C.footnote.charAt(0).toUpperCase() +
    C.footnote.slice(1) + "."));
  var ctl = add(tl, el("p", { "class": "controls" }));
  var bPrev = add(ctl, el("button", { type: "button" }, "\u2190 previous snapshot"));
  var bNext = add(ctl, el("button", { type: "button" }, "next snapshot \u2192"));
  var bPeak = add(ctl, el("button", { type: "button" }, "peak"));
  add(ctl, el("span", { "class": "note" }, "Hover the chart for a read-out, click to select a snapshot; " +
    "with the chart focused, \u2190/\u2192 move between snapshots, Home/End jump to the ends."));

  function nearest(vx) {
    var best = 0, bd = Infinity;
    for (var i = 0; i < S.length; i++) {
      var d = Math.abs(X(i) - vx);
      if (d < bd) { bd = d; best = i; }
    }
    return best;
  }
  function viewX(ev) {
    var r = svg.getBoundingClientRect();
    return (ev.clientX - r.left) * W / r.width;
  }
  function topBands(i, n) {
    return B.map(function (band, b) { return { name: band.name, colour: band.colour, v: S[i].bands[b] }; })
      .filter(function (x) { return x.v > 0; })
      .sort(function (a, b) { return b.v - a.v; }).slice(0, n);
  }
  svg.addEventListener("mousemove", function (ev) {
    var i = nearest(viewX(ev)), s = S[i];
    cursor.setAttribute("x1", X(i)); cursor.setAttribute("x2", X(i));
    while (readout.firstChild) readout.removeChild(readout.firstChild);
    add(readout, el("strong", null, "snapshot " + s.snapshot + " at " + fmtT(s.time)));
    add(readout, el("div", null, "total " + fmtB(s.total_bytes) + " (" + exactB(s.total_bytes) + ")"));
    topBands(i, 5).forEach(function (x) {
      var d = add(readout, el("div"));
      add(d, el("span", { "class": "swatch", style: "background:" + x.colour }));
      add(d, el("span", null, " " + fmtB(x.v) + "  " + x.name));
    });
    readout.hidden = false;
    var r = wrap.getBoundingClientRect(), px = ev.clientX - r.left;
    readout.style.left = (px > r.width / 2 ? Math.max(0, px - readout.offsetWidth - 12) : px + 12) + "px";
    readout.style.top = Math.max(0, ev.clientY - r.top - 20) + "px";
  });
  svg.addEventListener("mouseleave", function () {
    readout.hidden = true; cursor.setAttribute("x1", -10); cursor.setAttribute("x2", -10);
  });
  svg.addEventListener("click", function (ev) { select(nearest(viewX(ev)), true); });
  svg.addEventListener("keydown", function (ev) {
    var i = cur;
    if (ev.key === "ArrowLeft" || ev.key === "ArrowDown") i--;
    else if (ev.key === "ArrowRight" || ev.key === "ArrowUp") i++;
    else if (ev.key === "PageDown") i -= 10;
    else if (ev.key === "PageUp") i += 10;
    else if (ev.key === "Home") i = 0;
    else if (ev.key === "End") i = S.length - 1;
    else return;
    ev.preventDefault();
    select(Math.max(0, Math.min(S.length - 1, i)), true);
  });
  bPrev.addEventListener("click", function () { select(Math.max(0, cur - 1), true); });
  bNext.addEventListener("click", function () { select(Math.min(S.length - 1, cur + 1), true); });
  bPeak.addEventListener("click", function () { select(pi, true); });

  /* ---- the selected snapshot: its tree and its flamegraph ---- */
  var snapSec = section("Selected snapshot", "snapshot");
  var snapBody = add(snapSec, el("div"));

  /* The pruned preorder list back into nodes: {bytes, n (children in the
   * file), name, kids}. */
  function buildTree(t) {
    var root = null, stack = [];
    t.nodes.forEach(function (r) {
      var node = { depth: r[0], bytes: r[1], n: r[2], name: r[3], full: r.length > 4 ? r[4] : r[3], kids: [] };
      stack.length = r[0];
      if (r[0] === 0) root = node; else if (stack[r[0] - 1]) stack[r[0] - 1].kids.push(node);
      stack[r[0]] = node;
    });
    return root;
  }
  function treeDom(node, total, parentUl, open) {
    var li = add(parentUl, el("li"));
    var kidsUl = null;
    var hasKids = node.kids.length > 0 || node.n > node.kids.length;
    if (hasKids) {
      var btn = add(li, el("button", { type: "button", "class": "tog", "aria-expanded": open ? "true" : "false",
        "aria-label": (open ? "collapse " : "expand ") + node.name }, open ? "\u25be" : "\u25b8"));
      btn.addEventListener("click", function () {
        var o = kidsUl.hidden;
        kidsUl.hidden = !o;
        btn.setAttribute("aria-expanded", o ? "true" : "false");
        btn.textContent = o ? "\u25be" : "\u25b8";
      });
    } else {
      add(li, el("span", { "class": "tog", style: "display:inline-block;width:20px" }));
    }
    add(li, el("span", { "class": "bar", style: "width:" + Math.max(1, Math.round(60 * node.bytes / (total || 1))) + "px" }));
    add(li, el("span", { "class": "b" }, exactB(node.bytes) + " (" + pct(node.bytes, total) + ") "));
    add(li, el("span", { "class": "n", title: node.full }, node.name));
    if (hasKids) {
      kidsUl = add(li, el("ul"));
      if (!open) kidsUl.hidden = true;
      node.kids.forEach(function (c) { treeDom(c, total, kidsUl, false); });
      var shown = 0;
      node.kids.forEach(function (c) { shown += c.bytes; });
      var left = node.n - node.kids.length;
      if (left > 0)
        add(kidsUl, el("li", { "class": "pruned" }, left + " more entr" + (left === 1 ? "y" : "ies") +
          " under " + TR.threshold_percent + "% (or deeper than level " + TR.max_depth +
          "), " + exactB(Math.max(0, node.bytes - shown)) + " together, not shown"));
    }
  }
  /* Caller-first flame tree: each node's bytes not explained by its kept
   * children end a stack there (site first in Massif's tree), turned round
   * so the outermost caller is at the bottom, merged by name. */
  function flameTree(root) {
    var f = { name: "all", v: root.bytes, kids: {} , order: [] };
    function walk(node, path) {
      var shown = 0;
      node.kids.forEach(function (c) { shown += c.bytes; walk(c, path.concat([c.name])); });
      var self = node.bytes - shown;
      if (node === root || self <= 0) return;
      var at = f;
      for (var i = path.length - 1; i >= 0; i--) {
        var nm = path[i];
        if (!Object.prototype.hasOwnProperty.call(at.kids, nm)) { at.kids[nm] = { name: nm, v: 0, kids: {}, order: [] }; at.order.push(nm); }
        at = at.kids[nm];
        at.v += self;
      }
    }
    walk(root, []);
    return f;
  }
  function hue(name) {
    var h = 0;
    for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
    return "hsl(" + (10 + h % 45) + ",85%," + (55 + h % 15) + "%)";
  }
  function flameSvg(parent, f) {
    var rowsArr = [], FW = 1000, RH = 17;
    (function lay(n, x, d) {
      rowsArr.push({ n: n, x: x, d: d });
      var cx = x;
      n.order.slice().sort().forEach(function (k) { var c = n.kids[k]; lay(c, cx, d + 1); cx += c.v; });
    })(f, 0, 0);
    var depth = 0;
    rowsArr.forEach(function (r) { depth = Math.max(depth, r.d); });
    var FH = (depth + 1) * RH + 2, scale = FW / (f.v || 1);
    var s = add(parent, sv("svg", { "class": "flame", viewBox: "0 0 " + FW + " " + FH, role: "img",
      "aria-label": "flamegraph of the selected snapshot's tree" }));
    rowsArr.forEach(function (r) {
      var w = r.n.v * scale;
      if (w < 0.3) return;
      var y = FH - (r.d + 1) * RH;
      var gg = add(s, sv("g"));
      add(gg, sv("title", null, r.n.name + ": " + exactB(r.n.v) + " (" + pct(r.n.v, f.v) + ")"));
      add(gg, sv("rect", { x: (r.x * scale).toFixed(2), y: y, width: w.toFixed(2), height: RH - 1,
        fill: r.d === 0 ? "#b0b4ba" : hue(r.n.name) }));
      var chars = Math.floor((w - 6) / 6.6);
      if (chars >= 3) {
        var txt = r.n.name.length > chars ? r.n.name.slice(0, chars - 1) + "\u2026" : r.n.name;
        add(gg, sv("text", { x: (r.x * scale + 3).toFixed(2), y: y + RH - 5 }, txt));
      }
    });
  }

  function treeFor(i) {
    for (var j = i; j >= 0; j--) if (trees[j]) return j;
    return -1;
  }
  function select(i, fromUser) {
    if (i === cur && !fromUser) return;
    cur = i;
    var s = S[i];
    selLine.setAttribute("x1", X(i)); selLine.setAttribute("x2", X(i));
    svg.setAttribute("aria-valuenow", String(i));
    svg.setAttribute("aria-valuetext", "snapshot " + s.snapshot + " at " + fmtT(s.time) + ", " + fmtB(s.total_bytes));
    if (fromUser && window.history && history.replaceState) {
      try { history.replaceState(null, "", "#snapshot=" + s.snapshot); } catch (e) { /* file: URLs may refuse */ }
    }
    while (snapBody.firstChild) snapBody.removeChild(snapBody.firstChild);
    add(snapBody, el("h3", { id: "snapshot-title" }, "Snapshot " + s.snapshot + " at " + fmtT(s.time) + ": " +
      fmtB(s.total_bytes) + " (" + exactB(s.total_bytes) + ")"));
    facts(snapBody, [["Heap", exactB(s.heap_bytes)], ["Extra heap", exactB(s.extra_bytes)],
      ["Stacks", exactB(s.stacks_bytes)]]);
    var j = treeFor(i);
    if (j < 0) {
      add(snapBody, el("p", { "class": "note" }, "No snapshot at or before this one has an allocation tree."));
      return;
    }
    if (j !== i)
      add(snapBody, el("p", { "class": "note" }, "Snapshot " + s.snapshot + " has no allocation tree; " +
        "showing snapshot " + S[j].snapshot + " at " + fmtT(S[j].time) + ", the last one before it that has."));
    var root = buildTree(trees[j]), total = S[j].total_bytes;
    /* The file's own sites (the tree's top level) when nothing regrouped
     * them; else the grouping's sites or groups (by site from memtime's
     * detail: wrappers' callers as sites), the full name in the tooltip. */
    if (G.by === "site" && !D.grouping.from_detail) {
      add(snapBody, el("h3", null, "Top allocation sites of snapshot " + S[j].snapshot));
      table(snapBody, [["Site"], ["Bytes", "num"], ["Share", "num"]],
        root.kids.map(function (c) { return [{ text: c.name, title: c.full }, exactB(c.bytes), pct(c.bytes, total)]; }))
        .setAttribute("id", "top-sites");
    } else {
      var gs_ = SS[j] || [];
      add(snapBody, el("h3", null, (G.by === "site" ? "Top allocation sites" : "Top groups by " + GROUP_WORDS[G.by]) +
        " of snapshot " + S[j].snapshot));
      var tg = table(snapBody, [[G.by.charAt(0).toUpperCase() + G.by.slice(1)], ["Bytes", "num"], ["Share", "num"]],
        gs_.map(function (x) { return [x[0], exactB(x[2]), pct(x[2], total)]; }));
      tg.setAttribute("id", "top-sites");
      var trs = tg.querySelectorAll("tbody tr");
      for (var q = 0; q < trs.length; q++) trs[q].firstChild.setAttribute("title", gs_[q][1]);
    }
    add(snapBody, el("h3", null, "Allocation tree"));
    var ul = add(snapBody, el("ul", { "class": "tree" }));
    treeDom(root, total, ul, true);
    add(snapBody, el("h3", null, "Flamegraph"));
    add(snapBody, el("p", { "class": "note" }, "Callers at the bottom, allocation sites on top, width by bytes; " +
      "bytes of pruned subtrees end at their kept parent."));
    flameSvg(snapBody, flameTree(root));
  }

  /* ---- analyses ---- */
  var gs = section("Growth", "growth");
  var win = D.window;
  add(gs, el("p", { "class": "note" }, "Sites ranked by growth from snapshot " + win.from_snapshot + " (" +
    fmtT(win.from_time) + ") to snapshot " + win.to_snapshot + " (" + fmtT(win.to_time) + "), over " +
    win.detailed_snapshots + " snapshots with a tree."));
  function growthTable(parent, rows) {
    if (!rows.length) { add(parent, el("p", null, "No site changed in this window.")); return; }
    table(parent, [["Site"], ["Kind"], ["Start", "num"], ["End", "num"], ["Growth", "num"], ["Max", "num"]],
      rows.map(function (r) { return [{ text: r.name, title: r.site }, r.kind, fmtB(r.start_bytes), fmtB(r.end_bytes),
        (r.growth_bytes >= 0 ? "+" : "-") + fmtB(Math.abs(r.growth_bytes)), fmtB(r.max_bytes)]; }));
  }
  growthTable(gs, D.growth);
  if (D.last_moments) {
    add(gs, el("h3", null, "Last moments (the program did not exit)"));
    growthTable(gs, D.last_moments.growth);
  }
  if (D.at_exit) {
    var ls = section("Left allocated at exit", "leaks");
    if (!D.at_exit.length) add(ls, el("p", null, "Nothing was left allocated at exit."));
    else table(ls, [["Site"], ["Bytes", "num"], ["Blocks", "num"]],
      D.at_exit.map(function (r) { return [{ text: r.name, title: r.site }, exactB(r.bytes), commify(r.blocks)]; }));
  }
  if (D.sites) {
    var cs = section("Allocation counts", "counts");
    var top = D.sites.slice(0, 100);
    if (D.sites.length > top.length)
      add(cs, el("p", { "class": "note" }, "The " + top.length + " sites with the most allocations of " + D.sites.length + "."));
    table(cs, [["Site"], ["Allocations", "num"], ["Temporary", "num"], ["Allocated", "num"], ["Live blocks", "num"], ["Live", "num"]],
      top.map(function (r) { return [{ text: r.name, title: r.site }, commify(r.allocations), commify(r.temporary), fmtB(r.allocated_bytes),
        commify(r.live_blocks), fmtB(r.live_bytes)]; }));
  }
  if (D.rss && D.rss.peak && D.rss.peak.mappings.length) {
    var rs = section("Resident memory at its peak, outside the heap", "rss");
    table(rs, [["Mapping"], ["Anonymous", "num"], ["File", "num"], ["Shared", "num"]],
      D.rss.peak.mappings.map(function (m) { return [m.name + (m.mmap_stack.length ? " \u2190 " + m.mmap_stack.join(" \u2190 ") : ""),
        fmtB(m.anon_bytes), fmtB(m.file_bytes), fmtB(m.shmem_bytes)]; }));
  }

  /* ---- the selection: kept across groupings; at first #snapshot=N,
   * else the peak ---- */
  var keep = cur;
  cur = -1;
  selectNow = select;
  var h = keep >= 0 ? keep : fromHash();
  select(h >= 0 ? h : pi, false);
  }

  function fromHash() {
    var m = /^#snapshot=(\d+)$/.exec(location.hash);
    if (m) {
      for (var i = 0; i < D0.timeline.snapshots.length; i++) if (D0.timeline.snapshots[i].snapshot === +m[1]) return i;
    }
    return -1;
  }
  var first = 0;
  GR.forEach(function (gr, k) { if (gr["default"]) first = k; });
  draw(first);
  window.addEventListener("hashchange", function () { var i = fromHash(); if (i >= 0) selectNow(i, false); });
  /* Milliseconds from the start of navigation until the page is drawn (the
   * file read, parsed, this script run): what the size test measures. */
  document.documentElement.setAttribute("data-drawn-ms", String(Math.round(performance.now())));
})();
