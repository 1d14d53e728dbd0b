/* bushes.js — a generation's page: its bushes drawn as SVG from the
 * layout in gen-N-bushes.js (DA_GEN), only those near the screen, each in
 * a box sized from the layout so the page never reflows; a bush opened
 * full size to zoom and pan; a panel per trace (#trace-T, #trace-T-K)
 * and per aborted attempt (#abort-LINE) with the dump's text, loaded from
 * gen-N-text-K.js when asked for.  Everything from the dump goes in as
 * text (textContent, attributes), never as markup. */
"use strict";
(function () {
  var D = DA_GEN, NS = "http://www.w3.org/2000/svg";
  /* src/draw/bush_geometry.h */
  var COL_W = 200, START_H = 46, EXIT_W = 140, EXIT_H = 17, ROW_GAP = 7, END_H = 20, PAD = 12;
  var T = D.traces, B = D.bushes, A = D.aborts;
  /* trace row: 0 id, 1 K, 2 parent's index, 3 parent's number, 4 parent exit
   * (-1 none, -2 stitched), 5 LOC, 6 link, 7 linked number, 8-11 bytecodes,
   * IR, snapshots, mcode bytes, 12 bush, 13 block, 14-15 dump lines,
   * 16 [[exit, taken]], 17 text [chunk, offset, 4 lengths] */
  var SECTIONS = ["bytecode", "IR", "snapshots", "machine code"];

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function svgEl(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  function link(text, href) { var a = el("a", text); a.href = href; return a; }
  /* A location, linked to its source line when source-links.js has one
   * in the form the source view writes (text never becomes a URL). */
  function locValue(loc) {
    var m = typeof DA_SOURCE === "object" && DA_SOURCE && typeof loc === "string" &&
      Object.prototype.hasOwnProperty.call(DA_SOURCE, loc) ? DA_SOURCE[loc] : null;
    return typeof m === "string" && /^source-[0-9]+\.html#L[0-9]+$/.test(m) ? link(loc, m) : loc;
  }
  /* With a sysprof profile, profile-time.js: the samples charged to this
   * generation's traces (by stop order) and bushes (by label). */
  var TM = typeof DA_TIME === "object" && DA_TIME && DA_TIME.gens ?
    DA_TIME.gens[String(D.gen)] || { t: [], b: {} } : null;
  function timeText(n) {
    return n + " sample" + (n === 1 ? "" : "s") + " (" +
      (100 * n / (DA_TIME.samples || 1)).toFixed(1) + "% of the profile)";
  }
  /* A reason in its normal form ("NYI: bytecode FNEW"), as the dump
   * wrote it ("NYI: bytecode 51") on hover. */
  var NORMAL = {};
  (D.normal || []).forEach(function (n) { NORMAL["\u0000" + n[0]] = n[1]; });
  function reasonEl(raw) {
    var n = NORMAL["\u0000" + raw], sp = el("span", n === undefined ? raw : n);
    if (n !== undefined) sp.title = "as the dump wrote it: " + raw;
    return sp;
  }
  function traceName(i) { return "trace-" + T[i][0] + (T[i][1] > 1 ? "-" + T[i][1] : ""); }
  function blockH(n) { return START_H + n * (EXIT_H + ROW_GAP) + ROW_GAP + END_H; }
  function cut(s, n) { s = String(s); return s.length > n ? s.slice(0, n - 1) + "\u2026" : s; }

  var byName = {}, bushByLabel = {}, abortByLine = {}, sides = T.map(function () { return []; });
  T.forEach(function (t, i) {
    byName[traceName(i)] = i;
    if (t[2] !== null) sides[t[2]].push(i);
  });
  B.forEach(function (b, i) { bushByLabel[b[0]] = i; });
  A.forEach(function (a, i) { abortByLine[a[0]] = i; });
  /* The trace a number refers to at trace i: the latest of that number
   * stopped before it, else the first after. */
  function traceBefore(num, i) {
    var best = -1;
    for (var j = 0; j < T.length; j++) {
      if (T[j][0] !== num) continue;
      if (j < i || best < 0) best = j;
      if (j >= i) break;
    }
    return best;
  }

  var current = -1;   /* the trace whose panel is open */

  /* ---- drawing ---- */
  function drawBush(bi, full) {
    var b = B[bi], w = b[3] + 2 * PAD, h = b[4] + 2 * PAD;
    var svg = svgEl("svg", { viewBox: "0 0 " + w + " " + h, "class": "bushsvg" });
    if (!full) {
      svg.setAttribute("width", "100%");
      svg.setAttribute("height", "100%");
      svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
    }
    var edges = svgEl("g", { "class": "edges" }), nodes = svgEl("g");
    svg.appendChild(edges);
    svg.appendChild(nodes);
    var at = {};
    b[5].forEach(function (blk) { at[blk[0]] = blk; });
    b[5].forEach(function (blk) {
      var i = blk[0], t = T[i], x = blk[1] + PAD, y = blk[2] + PAD, ex = t[16];
      var g = svgEl("g", { "class": i === current ? "blk current" : "blk", "data-trace": i });
      var a = svgEl("a", { href: "#" + traceName(i) });
      g.appendChild(a);
      /* the whole column takes the click, gaps included */
      a.appendChild(svgEl("rect", { x: x, y: y, width: COL_W, height: blockH(ex.length), "class": "hit" }));
      a.appendChild(svgEl("rect", { x: x, y: y, width: COL_W, height: START_H, rx: 4, "class": t[2] === null ? "root" : "side" }));
      a.appendChild(svgEl("text", { x: x + 8, y: y + 18, "class": "tid" }, "trace " + t[0] + (t[1] > 1 ? " (" + t[1] + ")" : "")));
      a.appendChild(svgEl("text", { x: x + 8, y: y + 36, "class": "loc" }, cut(t[5], 30)));
      var ix = x + (COL_W - EXIT_W) / 2;
      ex.forEach(function (e, k) {
        var ey = y + START_H + ROW_GAP + k * (EXIT_H + ROW_GAP);
        a.appendChild(svgEl("rect", { x: ix, y: ey, width: EXIT_W, height: EXIT_H, "class": e[1] ? "exit hot" : "exit" }));
        a.appendChild(svgEl("text", { x: ix + 6, y: ey + 12.5, "class": "ex" }, "exit " + e[0] + (e[1] ? "  \u00d7" + e[1] : "")));
      });
      var endY = y + START_H + ROW_GAP + ex.length * (EXIT_H + ROW_GAP);
      a.appendChild(svgEl("rect", { x: ix, y: endY, width: EXIT_W, height: END_H, "class": "end" }));
      a.appendChild(svgEl("text", { x: ix + 6, y: endY + 14, "class": "ex" }, cut("\u2192 " + t[6], 22)));
      var title = svgEl("title", {}, "trace " + t[0] + " at " + t[5] + " \u2192 " + t[6]);
      a.appendChild(title);
      nodes.appendChild(g);
      /* the edge from the parent's exit row to this trace's START */
      var p = t[2] !== null ? at[t[2]] : null;
      if (p) {
        var pe = T[t[2]][16], k = -1;
        for (var q = 0; q < pe.length; q++) if (pe[q][0] === t[4]) { k = q; break; }
        var px = p[1] + PAD + (COL_W + EXIT_W) / 2;
        var py = k >= 0 ? p[2] + PAD + START_H + ROW_GAP + k * (EXIT_H + ROW_GAP) + EXIT_H / 2 : p[2] + PAD + START_H;
        /* out of the exit to the right, down past the parent's END, then to the child */
        var cx = x + COL_W / 2, ex2 = px + 10, by = p[2] + PAD + blockH(pe.length) + 6;
        edges.appendChild(svgEl("path", { d: "M" + px + " " + py + " H" + ex2 + " V" + by +
          " C" + ex2 + " " + (by + 20) + " " + cx + " " + (y - 20) + " " + cx + " " + y }));
      }
    });
    return svg;
  }

  /* ---- the list of bushes: windowed ----
   * Each bush's box is sized from its layout and placed at a known top,
   * so only the sections near the screen exist and nothing reflows. */
  var list = document.getElementById("bushes"), HEAD = 76, GAP = 16;
  document.getElementById("about").textContent = B.length + " bush" + (B.length === 1 ? "" : "es") +
    ", largest first; " + T.length + " traces, " + A.length + " aborted attempts. " +
    "Click a trace for its panel; open a bush to zoom (wheel, buttons) and pan (drag).";
  var avail = Math.max(300, (list.clientWidth || 1000) - 34), tops = [], sizes = [], total = 0;
  B.forEach(function (b) {
    var w = b[3] + 2 * PAD, h = b[4] + 2 * PAD, scale = Math.min(1, avail / w);
    sizes.push([Math.ceil(w * scale), Math.ceil(h * scale)]);
    tops.push(total);
    total += HEAD + sizes[sizes.length - 1][1] + GAP;
  });
  list.style.height = total + "px";
  var live = {}, markedBush = -1;
  function section(bi) {
    var b = B[bi], sec = el("section", null, "bush" + (bi === markedBush ? " marked" : ""));
    sec.id = "bush-" + b[0];
    sec.style.top = tops[bi] + "px";
    sec.style.height = HEAD + sizes[bi][1] + "px";
    var head = el("h2", "bush " + b[0]);
    var open = el("button", "open full size", "open");
    open.dataset.bush = bi;
    head.appendChild(open);
    sec.appendChild(head);
    var root = b[5].length ? T[b[5][0][0]] : null;
    sec.appendChild(el("p", b[1] + " trace" + (b[1] === 1 ? "" : "s") + ", " + b[2] + " bytes of machine code" +
      (root ? "; root at " + root[5] : "") + (TM ? "; " + timeText(TM.b[b[0]] || 0) : ""), "muted"));
    var box = el("div", null, "bushbox");
    box.style.width = sizes[bi][0] + "px";
    box.style.height = sizes[bi][1] + "px";
    box.appendChild(drawBush(bi, false));
    sec.appendChild(box);
    return sec;
  }
  function firstBelow(y) {   /* the first bush whose bottom is below y */
    var lo = 0, hi = B.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (tops[mid] + HEAD + sizes[mid][1] < y) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
  function renderWindow() {
    var top = -list.getBoundingClientRect().top, from = firstBelow(top - 600), want = {};
    for (var bi = from; bi < B.length && tops[bi] < top + window.innerHeight + 600; bi++) want[bi] = 1;
    Object.keys(live).forEach(function (k) { if (!want[k]) { live[k].remove(); delete live[k]; } });
    Object.keys(want).forEach(function (k) { if (!live[k]) list.appendChild(live[k] = section(Number(k))); });
  }
  var pending = false;
  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; renderWindow(); });
  }
  window.addEventListener("scroll", schedule, { passive: true });
  window.addEventListener("resize", schedule);
  renderWindow();
  function showBush(bi, mark) {
    if (mark) {
      if (markedBush >= 0 && live[markedBush]) live[markedBush].classList.remove("marked");
      markedBush = bi;
    }
    window.scrollTo(0, list.getBoundingClientRect().top + window.scrollY + tops[bi] - 8);
    renderWindow();
    if (mark && live[bi]) live[bi].classList.add("marked");
  }
  list.addEventListener("click", function (ev) {
    var t = ev.target;
    if (t.classList && t.classList.contains("open")) openViewer(Number(t.dataset.bush));
  });

  /* ---- the viewer: one bush, zoom and pan ---- */
  var viewer = document.getElementById("viewer"), view = null;
  function openViewer(bi) {
    var b = B[bi], w = b[3] + 2 * PAD, h = b[4] + 2 * PAD;
    viewer.textContent = "";
    var bar = el("div", null, "bar");
    bar.appendChild(el("b", "bush " + b[0] + " (" + b[1] + " traces)"));
    var svg = drawBush(bi, true), stage = el("div", null, "stage");
    svg.setAttribute("width", "100%");
    svg.setAttribute("height", "100%");
    svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
    stage.appendChild(svg);
    view = { bush: bi, svg: svg, x: 0, y: 0, w: 0, h: 0, bw: w, bh: h, stage: stage };
    [["\u2212", function () { zoom(1.25); }], ["+", function () { zoom(0.8); }],
      ["fit", fit], ["100%", actual], ["close", closeViewer]].forEach(function (bt) {
      var button = el("button", bt[0]);
      button.addEventListener("click", bt[1]);
      bar.appendChild(button);
    });
    viewer.appendChild(bar);
    viewer.appendChild(stage);
    viewer.hidden = false;
    actual();
  }
  function apply() { view.svg.setAttribute("viewBox", view.x + " " + view.y + " " + view.w + " " + view.h); }
  function fit() {
    var r = view.stage.getBoundingClientRect(), s = Math.max(view.bw / r.width, view.bh / r.height);
    view.w = r.width * s; view.h = r.height * s; view.x = 0; view.y = 0; apply();
  }
  function actual() {  /* 100%: a unit of the layout is a pixel; the root on top, centred */
    var r = view.stage.getBoundingClientRect(), root = B[view.bush][5][0];
    view.w = r.width; view.h = r.height; view.y = 0;
    view.x = root ? Math.max(0, Math.min(view.bw - r.width, root[1] + PAD + COL_W / 2 - r.width / 2)) : 0;
    apply();
  }
  function zoom(f, cx, cy) {
    if (cx === undefined) { cx = view.x + view.w / 2; cy = view.y + view.h / 2; }
    view.x = cx - (cx - view.x) * f; view.y = cy - (cy - view.y) * f;
    view.w *= f; view.h *= f; apply();
  }
  function closeViewer() { viewer.hidden = true; viewer.textContent = ""; view = null; }
  viewer.addEventListener("wheel", function (ev) {
    if (!view) return;
    ev.preventDefault();
    var r = view.stage.getBoundingClientRect();
    var cx = view.x + (ev.clientX - r.left) / r.width * view.w, cy = view.y + (ev.clientY - r.top) / r.height * view.h;
    zoom(ev.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
  }, { passive: false });
  var drag = null;
  viewer.addEventListener("pointerdown", function (ev) {
    if (!view || !view.stage.contains(ev.target)) return;
    drag = { x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y, moved: false };
  });
  window.addEventListener("pointermove", function (ev) {
    if (!drag || drag.up || !view) return;
    var r = view.stage.getBoundingClientRect();
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    view.x = drag.vx - dx / r.width * view.w;
    view.y = drag.vy - dy / r.height * view.h;
    apply();
  });
  /* Released, a drag pans no more, but is kept for the click that follows
   * (which it may cancel); then it is dropped, if no new drag has begun:
   * a busy page runs input before timers, so one may have. */
  window.addEventListener("pointerup", function () {
    var ended = drag;
    if (ended) ended.up = true;
    setTimeout(function () { if (drag === ended) drag = null; }, 0);
  });
  viewer.addEventListener("click", function (ev) { if (drag && drag.moved) ev.preventDefault(); }, true);
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && view) closeViewer();
  });

  /* ---- trace text, loaded on demand ---- */
  var chunks = {};
  window.DA_CHUNK = function (gen, k, b64) {
    var c = chunks[k];
    if (!c || gen !== D.gen) return;
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")))
      .arrayBuffer().then(function (buf) { c.resolve(new Uint8Array(buf)); }, c.reject);
  };
  function chunk(k) {
    if (!chunks[k]) {
      var c = chunks[k] = {};
      c.promise = new Promise(function (res, rej) { c.resolve = res; c.reject = rej; });
      var s = document.createElement("script");
      s.src = "gen-" + D.gen + "-text-" + k + ".js";
      s.onerror = function () { c.reject(new Error("cannot load " + s.src)); };
      document.head.appendChild(s);
    }
    return chunks[k].promise;
  }
  /* The sections of a text reference, as strings. */
  function sections(ref) {
    return chunk(ref[0]).then(function (bytes) {
      var dec = new TextDecoder(), off = ref[1], out = [];
      for (var s = 0; s < 4; s++) {
        out.push(dec.decode(bytes.subarray(off, off + ref[2 + s])));
        off += ref[2 + s];
      }
      return out;
    });
  }
  /* A command that prints the dump's lines from first to last. */
  function sedCommand(first, last) {
    return "sed -n '" + first + "," + last + "p' '" + String(D.dump).replace(/'/g, "'\\''") + "'";
  }
  function showText(box, ref, first, last) {
    if (!ref) {
      box.appendChild(el("p", !D.dropped ? "The dump holds no text for it (a -jv log, or nothing between its headers)." :
        "Its text is not kept in the report, or there is none (the report's text budget was spent on earlier " +
        "traces); it is lines " + first + "\u2013" + last + " of the dump:", "muted"));
      if (D.dropped) box.appendChild(el("pre", sedCommand(first, last), "cmd"));
      return;
    }
    var wait = el("p", "loading the text\u2026", "muted");
    box.appendChild(wait);
    sections(ref).then(function (secs) {
      wait.remove();
      secs.forEach(function (text, s) {
        if (!text) return;
        box.appendChild(el("h3", SECTIONS[s]));
        box.appendChild(el("pre", text, "dumptext"));
      });
      if (ref[6]) {   /* kept without its machine code: the budget */
        box.appendChild(el("h3", SECTIONS[3]));
        box.appendChild(el("p", "Not kept in the report (its text budget); it is in lines " + first + "\u2013" +
          last + " of the dump, after the \"mcode\" header:", "muted"));
        box.appendChild(el("pre", sedCommand(first, last), "cmd"));
      }
      box.dataset.loaded = "1";
    }, function (e) { wait.textContent = String(e); });
  }

  /* ---- panels ---- */
  var panel = document.getElementById("panel");
  function panelHead(title) {
    panel.textContent = "";
    document.body.classList.add("panel-open");
    var bar = el("div", null, "bar");
    bar.appendChild(el("b", title));
    var close = link("close", "#");
    close.className = "close";
    bar.appendChild(close);
    panel.appendChild(bar);
    panel.hidden = false;
    panel.scrollTop = 0;
  }
  function row(dl, name, value) {
    dl.appendChild(el("dt", name));
    var dd = el("dd");
    if (value instanceof Node) dd.appendChild(value); else dd.textContent = String(value);
    dl.appendChild(dd);
  }
  function ordinal(k) {
    var t = k % 100, u = k % 10;
    return k + (t >= 11 && t <= 13 ? "th" : u === 1 ? "st" : u === 2 ? "nd" : u === 3 ? "rd" : "th");
  }
  function traceLink(i) { return link("trace " + T[i][0] + (T[i][1] > 1 ? " (" + T[i][1] + ")" : ""), "#" + traceName(i)); }

  function showTrace(i) {
    var t = T[i];
    panelHead("trace " + t[0] + (t[1] > 1 ? " (" + ordinal(t[1]) + " of that number)" : "") + ", generation " + D.gen);
    panel.dataset.trace = traceName(i);
    var dl = el("dl");
    row(dl, "starts at", locValue(t[5]));
    if (t[4] >= 0 || t[4] === -2) {
      var pi = t[2] !== null ? t[2] : traceBefore(t[3], i), span = el("span");
      span.appendChild(pi >= 0 ? traceLink(pi) : el("span", "trace " + t[3]));
      span.appendChild(document.createTextNode(t[4] >= 0 ? ", exit " + t[4] : " (stitched after it)"));
      row(dl, "parent", span);
    } else row(dl, "parent", "none: a root trace");
    var ln = el("span", t[6]);
    if (t[7]) {
      var li = traceBefore(t[7], i + 1);
      if (li >= 0) { ln.appendChild(document.createTextNode(": ")); ln.appendChild(traceLink(li)); }
    }
    row(dl, "ends", ln);
    if (t[8] !== null) row(dl, "sizes", t[8] + " bytecodes, " + t[9] + " IR, " + t[10] + " snapshots, " + t[11] + " bytes of machine code");
    if (t[12] !== null) row(dl, "bush", link("bush " + B[t[12]][0], "#bush-" + B[t[12]][0]));
    row(dl, "dump lines", t[14] + "\u2013" + t[15]);
    if (TM) row(dl, "time", timeText(TM.t[i] || 0));
    var from = [];
    T.forEach(function (u, j) { if (u[4] === -2 && j > i && traceBefore(u[3], j) === i) from.push(j); });
    panel.appendChild(dl);
    panel.appendChild(el("h3", "exits"));
    if (!t[16].length) panel.appendChild(el("p", "none the dump shows", "muted"));
    else {
      var tb = el("table"), hr = el("tr");
      ["exit", "taken", "side traces"].forEach(function (h) { hr.appendChild(el("th", h)); });
      tb.appendChild(hr);
      t[16].forEach(function (e) {
        var tr = el("tr"), td = el("td");
        tr.appendChild(el("td", e[0], "num"));
        tr.appendChild(el("td", e[1], "num"));
        sides[i].forEach(function (j) {
          if (T[j][4] !== e[0]) return;
          td.appendChild(traceLink(j));
          td.appendChild(document.createTextNode(" "));
        });
        tr.appendChild(td);
        tb.appendChild(tr);
      });
      panel.appendChild(tb);
    }
    /* links both ways: the traces that end by going to this one */
    var into = [];
    T.forEach(function (u, j) { if (j !== i && u[7] === t[0] && traceBefore(u[7], j + 1) === i) into.push(j); });
    if (into.length) {
      var q = el("p", "traces that link to it: ");
      into.slice(0, 100).forEach(function (j) { q.appendChild(traceLink(j)); q.appendChild(document.createTextNode(" ")); });
      if (into.length > 100) q.appendChild(document.createTextNode("\u2026 (" + into.length + ")"));
      panel.appendChild(q);
    }
    if (from.length) {
      var p = el("p", "stitched after it: ");
      from.forEach(function (j) { p.appendChild(traceLink(j)); p.appendChild(document.createTextNode(" ")); });
      panel.appendChild(p);
    }
    var box = el("div", null, "text");
    panel.appendChild(box);
    showText(box, t[17], t[14], t[15]);
    /* and where it is in the page: its bush, its node marked and shown */
    document.querySelectorAll("g.blk.current").forEach(function (g) { g.classList.remove("current"); });
    current = i;
    if (t[12] !== null) {
      showBush(t[12], true);
      var inViewer = document.querySelector('#viewer g.blk[data-trace="' + i + '"]');
      if (inViewer) inViewer.classList.add("current");
      var node = document.querySelector('#bushes g.blk[data-trace="' + i + '"]');
      if (node) {
        node.classList.add("current");
        var r = node.getBoundingClientRect();
        if (r.bottom > window.innerHeight - 20) window.scrollBy(0, r.top - window.innerHeight / 3);
      }
    }
  }

  function showAbort(k) {
    var a = A[k];
    panelHead("aborted attempt, trace number " + a[1] + ", dump line " + a[0]);
    panel.dataset.abort = String(a[0]);
    var dl = el("dl");
    row(dl, "aborted at", locValue(a[4]));
    row(dl, "reason", reasonEl(a[5]));
    if (a[2]) {
      var span = el("span"), pi = -1;
      for (var j = 0; j < T.length; j++) if (T[j][0] === a[2] && T[j][14] < a[0]) pi = j;
      span.appendChild(pi >= 0 ? traceLink(pi) : el("span", "trace " + a[2]));
      span.appendChild(document.createTextNode(a[3] >= 0 ? ", exit " + a[3] : " (stitched after it)"));
      row(dl, "parent", span);
    }
    if (a[10] !== null) row(dl, "started at", locValue(a[10]));
    row(dl, "dump lines", (a[6] ? a[6] + "\u2013" : "") + a[0]);
    panel.appendChild(dl);
    /* the traces around it: compiled where it started, in this generation */
    if (a[10] !== null) {
      var near = [];
      T.forEach(function (t, j) { if (t[5] === a[10]) near.push(j); });
      var others = A.filter(function (b) { return b[10] === a[10]; }).length - 1;
      var p = el("p", near.length ? "Compiled in this generation from the same start: " :
        "No trace of this generation compiled from the same start. ");
      near.slice(0, 50).forEach(function (j) { p.appendChild(traceLink(j)); p.appendChild(document.createTextNode(" ")); });
      if (near.length > 50) p.appendChild(document.createTextNode("\u2026 (" + near.length + ")"));
      p.appendChild(document.createTextNode(others ? " " + others + " other attempt" + (others === 1 ? "" : "s") +
        " started there in this generation." : ""));
      panel.appendChild(p);
    }
    if (a[7].length) {
      panel.appendChild(el("h3", "last bytecodes recorded (the last one failed)"));
      panel.appendChild(el("pre", a[7].join("\n"), "dumptext"));
    }
    var box = el("div", null, "text");
    panel.appendChild(box);
    if (a[9]) {
      /* only a site's first attempt keeps its text */
      var p = el("p", "Its text is that of the first attempt at this site (same reason, same place), kept once: ", "muted");
      p.appendChild(link("the attempt at dump line " + a[9][1], (a[9][0] === D.gen ? "" : "gen-" + a[9][0] + "-bushes.html") +
        "#abort-" + a[9][1]));
      p.appendChild(document.createTextNode(". This one is lines " + (a[6] ? a[6] + "\u2013" : "") + a[0] + " of the dump:"));
      box.appendChild(p);
      box.appendChild(el("pre", sedCommand(a[6] || a[0], a[0]), "cmd"));
    } else showText(box, a[8], a[6], a[0]);
  }

  /* ---- the aborted attempts, 200 at a time ---- */
  var abortList = document.getElementById("abort-list"), shownAborts = 0;
  function moreAborts() {
    var to = Math.min(A.length, shownAborts + 200), ul = el("ul", null, "aborts");
    for (; shownAborts < to; shownAborts++) {
      var a = A[shownAborts], li = el("li");
      li.id = "abort-" + a[0];
      li.appendChild(link("line " + a[0], "#abort-" + a[0]));
      li.appendChild(document.createTextNode(" trace " + a[1] + " at " + a[4] + ": "));
      li.appendChild(reasonEl(a[5]));
      ul.appendChild(li);
    }
    abortList.appendChild(ul);
    var old = document.getElementById("more-aborts");
    if (old) old.remove();
    if (shownAborts < A.length) {
      var more = el("button", "show more (" + (A.length - shownAborts) + " left)");
      more.id = "more-aborts";
      more.addEventListener("click", moreAborts);
      abortList.appendChild(more);
    }
  }
  if (!A.length) abortList.appendChild(el("p", "none", "muted"));
  else moreAborts();

  /* ---- addresses ---- */
  function route() {
    var h = decodeURIComponent(location.hash.slice(1)), m;
    if (h in byName) { showTrace(byName[h]); return; }
    if ((m = /^abort-(\d+)$/.exec(h)) && Number(m[1]) in abortByLine) { showAbort(abortByLine[Number(m[1])]); return; }
    panel.hidden = true;
    panel.textContent = "";
    document.body.classList.remove("panel-open");
    current = -1;
    document.querySelectorAll("g.blk.current").forEach(function (g) { g.classList.remove("current"); });
    if ((m = /^bush-(.+)$/.exec(h)) && m[1] in bushByLabel) showBush(bushByLabel[m[1]], true);
  }
  window.addEventListener("hashchange", route);
  route();
  requestAnimationFrame(function () { performance.mark("rendered"); document.body.dataset.rendered = "1"; });
})();
