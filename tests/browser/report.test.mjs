// report.test.mjs DIR — the HTML report in a real browser (Debian's
// chromium, driven by playwright-core).  DIR holds, made by run.sh from
// real dumps: pen/ (penlight-x.dump: the report next to the CSV views it
// must agree with), hostile/ (hostile.dump: chunk names that are
// markup), tpl/ (templates.dump, 7,803 bushes), prof/ (costly.dump with
// a profile) and shop/ (shop.dump with its profile and source: the first
// screen, what to fix first).  With DA_SCREENSHOTS=DIR it leaves the
// README's pictures there.  Prints "ok"/"FAIL" lines and "browser: N
// passed, N failed".
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { csv } from "../cli/csv.mjs";

const dir = process.argv[2];
const samples = process.argv[3];
let pass = 0, fail = 0;

function check(name, cond, detail) {
  if (cond) { pass++; console.log(`ok   - ${name}`); }
  else { fail++; console.log(`FAIL - ${name}`); if (detail !== undefined) console.log(`       ${detail}`); }
}
function same(name, want, got) {
  const w = JSON.stringify(want), g = JSON.stringify(got);
  check(name, w === g, `expected: ${w}\n       got:      ${g}`);
}

async function open(browser, file, viewport) {
  const page = await browser.newPage({ viewport: viewport || { width: 1300, height: 1000 } });
  const errors = [], dialogs = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("dialog", (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto("file://" + path.resolve(file), { waitUntil: "load" });
  return { page, errors, dialogs };
}

// The cells of a table's shown rows, as text.
const cells = (page, id) => page.$$eval(`#${id} tbody tr`, (trs) =>
  trs.map((tr) => Array.from(tr.cells, (td) => td.textContent)));
const header = (page, id, name) => page.locator(`#${id} th`, { hasText: new RegExp(`^${name}$`) });
// A click on a header, then its table sorted: the page sets aria-sort and
// redraws the rows in one handler, so the attribute is the state to wait
// for (the click's return does not promise the handler has run).
async function sortBy(page, id, name, dir) {
  await header(page, id, name).click();
  await header(page, id, name).and(page.locator(`[aria-sort=${dir}]`)).waitFor();
}
// The generation page's panel shows ADDRESS (trace-T[-K] or abort-L):
// route() runs on hashchange, a task queued after the address changes, so
// a read right after a click or goBack() could see the panel before.
const panelFor = (page, address) => page.waitForFunction((a) => {
  const pn = document.getElementById("panel");
  return location.hash === "#" + a && !pn.hidden &&
    (pn.dataset.trace === a || "abort-" + pn.dataset.abort === a);
}, address);

async function penlight(browser) {
  const out = path.join(dir, "pen");
  const { page, errors } = await open(browser, path.join(out, "index.html"));
  const traces = csv(path.join(out, "gen-1-traces.csv"));
  const reasons = csv(path.join(out, "gen-1-abort-reasons.csv"));
  const sites = csv(path.join(out, "gen-1-abort-sites.csv"));
  const exits = csv(path.join(out, "gen-1-exits.csv"));

  const cards = Object.fromEntries(await page.$$eval("#cards .card", (cs) =>
    cs.map((c) => [c.querySelector("span").textContent, Number(c.querySelector("b").textContent)])));
  same("card: traces compiled = rows of traces.csv", traces.length, cards["traces compiled"]);
  same("card: aborted attempts = sum of abort-reasons.csv", reasons.reduce((s, r) => s + Number(r.COUNT), 0),
    cards["aborted attempts"]);
  same("card: exits taken = sum of exits.csv", exits.reduce((s, r) => s + Number(r.COUNT), 0), cards["exits taken"]);
  same("card: values of this real dump", [74, 47, 576, 26],
    [cards["traces compiled"], cards["aborted attempts"], cards["exits taken"], cards["bushes"]]);

  // Reasons in their normal form, as the dump wrote them on hover.
  const normalOf = {};
  for (const s of sites) normalOf[s.REASON] = s.NORMAL_REASON;
  const reasonCells = await page.$$eval("#reasons tbody tr", (trs) =>
    trs.map((tr) => [tr.cells[0].textContent, tr.cells[0].title, tr.cells[1].textContent, tr.cells[2].textContent]));
  same("reasons table = abort-reasons.csv, each reason in its normal form (abort-sites.csv's NORMAL_REASON)",
    reasons.map((r) => [normalOf[r.REASON], r.COUNT]).sort(), reasonCells.map((r) => [r[0], r[2]]).sort());
  same("... as the dump wrote it on hover where it differs",
    reasons.map((r) => [normalOf[r.REASON], normalOf[r.REASON] === r.REASON ? "" : "as the dump wrote it: " + r.REASON]).sort(),
    reasonCells.map((r) => [r[0], r[1]]).sort());
  check("... 'NYI: bytecode 71' is shown as VARG", reasonCells.some((r) => r[0] === "NYI: bytecode VARG" &&
    r[1] === "as the dump wrote it: NYI: bytecode 71" && r[3].startsWith("NYIBC: the ... of a vararg function is read")));

  const bySite = {};
  for (const s of sites) bySite[`${s.FILE}:${s.LINE}`] = (bySite[`${s.FILE}:${s.LINE}`] || 0) + Number(s.COUNT);
  const siteRows = await cells(page, "sites");
  same("sites table = abort-sites.csv summed per file and line",
    Object.entries(bySite).sort(), siteRows.map((r) => [`${r[0]}:${r[1]}`, Number(r[2])]).sort());

  // Each site's failed attempt ends at an abort's dump line.
  const lastLines = new Set(sites.map((s) => s.LAST_LINE));
  same("sites table: every failed attempt ends at a LAST_LINE of abort-sites.csv", siteRows.length,
    siteRows.filter((r) => lastLines.has((r[4].match(/dump line (\d+)$/) || [])[1])).length);

  // Traces: stop order at first, as traces.csv.
  let rows = await cells(page, "traces");
  same("traces table: ids and sizes = traces.csv", traces.map((t) => [t.ID, t.NUM_BC, t.NUM_IR, t.SIZE_MC]),
    rows.map((r) => [r[1], r[7], r[8], r[10]]));
  same("traces table: parents of side traces = traces.csv", traces.map((t) => (t.PARENT === "0" ? "" : t.PARENT)),
    rows.map((r) => r[2]));

  // Sorting by a click on a column header.
  const sizes = traces.map((t) => Number(t.SIZE_MC));
  await sortBy(page, "traces", "mcode bytes", "descending");
  rows = await cells(page, "traces");
  same("click on 'mcode bytes' sorts descending", [...sizes].sort((a, b) => b - a), rows.map((r) => Number(r[10])));
  same("the header says so", "descending",
    await header(page, "traces", "mcode bytes").getAttribute("aria-sort"));
  await sortBy(page, "traces", "mcode bytes", "ascending");
  rows = await cells(page, "traces");
  same("a second click sorts ascending", [...sizes].sort((a, b) => a - b), rows.map((r) => Number(r[10])));
  await sortBy(page, "traces", "id", "descending");
  rows = await cells(page, "traces");
  same("a click on id sorts by number, descending", traces.map((t) => Number(t.ID)).sort((a, b) => b - a),
    rows.map((r) => Number(r[1])));

  // Filtering by file: the count comes from the dump itself.
  const dump = fs.readFileSync(path.join(samples, "penlight-x.dump"), "latin1").split("\n");
  const startFile = {};
  let tablex = 0;
  for (const l of dump) {
    let m = l.match(/^---- TRACE (\d+) start (?:\d+\/\d+ )?(.*):\d+$/);
    if (m) startFile[m[1]] = m[2];
    m = l.match(/^---- TRACE (\d+) stop/);
    if (m && startFile[m[1]] === "tablex.lua") tablex++;
  }
  await page.fill("#trace-filter", "tablex");
  rows = await cells(page, "traces");
  same("trace filter 'tablex': the compiled traces that start in tablex.lua", tablex, rows.length);
  check("trace filter: every row shown is in tablex.lua", rows.length > 0 && rows.every((r) => r[4] === "tablex.lua"));
  check("trace filter narrows", rows.length < traces.length, `${rows.length} of ${traces.length}`);

  await page.fill("#abort-filter", "tablex");
  const want = {};
  for (const s of sites) if (s.FILE.includes("tablex")) want[s.REASON] = (want[s.REASON] || 0) + Number(s.COUNT);
  same("abort filter: reasons summed over tablex.lua's sites", Object.entries(want).map((w) => [normalOf[w[0]], w[1]]).sort(),
    (await cells(page, "reasons")).map((r) => [r[0], Number(r[1])]).sort());
  same("abort filter: sites of tablex.lua only", ["tablex.lua"],
    [...new Set((await cells(page, "sites")).map((r) => r[0]))]);

  // Exits by what they cost: without a side trace, then those with one.
  const cold = await cells(page, "cold"), hot = await cells(page, "exits");
  const noSide = exits.filter((e) => e.SIDE_TRACE === ""), withSide = exits.filter((e) => e.SIDE_TRACE !== "");
  same("exits without a side trace: the most taken of exits.csv's", Math.max(...noSide.map((e) => Number(e.COUNT))),
    Number(cold[0][3]));
  same("... all of them, most taken first", noSide.map((e) => Number(e.COUNT)).sort((a, b) => b - a).slice(0, 50),
    cold.map((r) => Number(r[3])));
  same("exits that grew a side trace: the most taken of exits.csv's", Math.max(...withSide.map((e) => Number(e.COUNT))),
    Number(hot[0][3]));
  const side = exits.find((e) => e.TRACE === hot[0][1] && e.EXIT === hot[0][2]);
  same("... its side trace = exits.csv", side && side.SIDE_TRACE, hot[0][4]);

  check("index.html: no console errors", errors.length === 0, errors.join(" | "));
  await page.close();

  // From the top abort site to its last attempt's panel on the generation page.
  const index2 = await open(browser, path.join(out, "index.html"));
  const siteLink = index2.page.locator("#sites tbody tr").first().locator("td:nth-child(5) a");
  const siteHref = await siteLink.getAttribute("href");
  const siteLine = Number((siteHref.match(/#abort-(\d+)$/) || [])[1]);
  same("top site links to its last attempt's anchor", `gen-1-bushes.html#abort-${siteLine}`, siteHref);
  const siteReason = (await cells(index2.page, "sites"))[0][3].replace(/ \(\d+\)(; .*)?$/, "");
  await siteLink.click();
  await index2.page.waitForSelector("#panel:not([hidden])");
  const abortHead = dump[siteLine - 1];
  same("the attempt's panel is the abort at that dump line", true, /^---- TRACE \d+ abort /.test(abortHead));
  const reasonShown = await index2.page.$eval("#panel dl", (dl) => {
    const dt = Array.from(dl.querySelectorAll("dt")).find((d) => d.textContent === "reason");
    return [dt.nextElementSibling.textContent, dt.nextElementSibling.firstChild.title || ""];
  });
  const written = abortHead.replace(/^.* -- /, "");
  same("the panel names the attempt's reason in its normal form (the sites table's)", siteReason, reasonShown[0]);
  same("... as the dump wrote it on hover", normalOf[written] === written ? "" : "as the dump wrote it: " + written,
    reasonShown[1]);
  // A site keeps the text of its first attempt; later ones link to it.
  let textLine = siteLine;
  const toFirst = await index2.page.$("#panel .text a");
  if (toFirst) {
    await toFirst.click();
    await index2.page.waitForFunction((l) => location.hash !== "#abort-" + l, siteLine);
    textLine = Number((await index2.page.evaluate(() => location.hash)).replace("#abort-", ""));
    same("the site's first attempt: same place and reason", abortHead.replace(/^---- TRACE \d+ /, ""),
      dump[textLine - 1].replace(/^---- TRACE \d+ /, ""));
  }
  await index2.page.waitForSelector("#panel .text pre.dumptext", { timeout: 10000 });
  const attemptBc = await index2.page.$eval("#panel .text pre.dumptext", (p) => p.textContent);
  let st = textLine - 1;
  while (st > 0 && !/^---- TRACE \d+ start /.test(dump[st - 1])) st--;
  const startLoc = dump[st - 1].replace(/^---- TRACE \d+ start (\d+\/(\d+|stitch) )?/, "");
  check("the attempt's panel says where it started (its start header)",
    (await index2.page.textContent("#panel dl")).includes("started at" + startLoc), startLoc);
  same("the attempt's recorded bytecode = the dump's lines", dump.slice(st, textLine - 1)
    .filter((l) => /^\d{4} /.test(l)).join("\n") + "\n", attemptBc);
  check("site -> attempt: no console errors", index2.errors.length === 0, index2.errors.join(" | "));
  await index2.page.close();

  // The generation page: bushes drawn from the layout data.
  const gen = await open(browser, path.join(out, "gen-1-bushes.html"));
  const p = gen.page;
  const order = await p.$$eval("section.bush h2", (hs) => hs.map((h) => h.firstChild.textContent));
  same("gen page: largest bush first", "bush 23", order[0]);
  const parentOf = Object.fromEntries(traces.map((t) => [t.ID, t.PARENT]));
  const rootOf = (id) => (parentOf[id] === "0" ? id : rootOf(parentOf[id]));
  const bush23 = traces.filter((t) => rootOf(t.ID) === "23").length;
  same("gen page: bush 23 drawn with a block per trace (traces.csv)", [21, bush23],
    [await p.$$eval("#bush-23 g.blk", (g) => g.length), bush23]);
  const boxes = await p.$$eval("section.bush .bushbox", (bs) => bs.map((b) => [b.style.height, b.firstChild.getBoundingClientRect().height]));
  check("gen page: every drawn box has the size the layout gave it", boxes.length > 0 &&
    boxes.every((b) => Math.abs(parseFloat(b[0]) - b[1]) < 1), JSON.stringify(boxes.slice(0, 3)));
  // A bush node to its trace's panel and back.
  await p.click('#bush-23 a[href="#trace-27"]');
  await panelFor(p, "trace-27");
  same("click on trace 27's node: its address", "#trace-27", await p.evaluate(() => location.hash));
  same("its panel", "trace 27, generation 1", await p.textContent("#panel .bar b"));
  await p.waitForSelector("#panel .text pre.dumptext");
  if (process.env.DA_SCREENSHOTS)
    await p.screenshot({ path: path.join(process.env.DA_SCREENSHOTS, "report-trace.png") });
  const start27 = dump.findIndex((l) => l.startsWith("---- TRACE 27 start"));
  const ir27 = dump.findIndex((l) => l.startsWith("---- TRACE 27 IR"));
  same("its bytecode = the dump's lines", dump.slice(start27 + 1, ir27).join("\n") + "\n",
    await p.$eval("#panel .text pre.dumptext", (e) => e.textContent));
  // Links both ways: trace 23's panel lists the traces whose stop line
  // links to 23 (the dump's "stop -> 23").
  await p.evaluate(() => { location.hash = "#trace-23"; });
  await panelFor(p, "trace-23");
  const into23 = [];
  let open23 = null;
  for (const l of dump) {
    let m = l.match(/^---- TRACE (\d+) start/);
    if (m) open23 = m[1];
    if (/^---- TRACE \d+ stop -> 23$/.test(l) && open23 !== "23") into23.push("trace " + open23);
  }
  same("trace 23's panel: the traces that link to it = the dump's 'stop -> 23'", into23.sort(),
    (await p.$$eval("#panel p", (ps) => {
      const q = ps.find((x) => x.textContent.startsWith("traces that link to it"));
      return q ? Array.from(q.querySelectorAll("a"), (a) => a.textContent) : [];
    })).sort());
  await p.goBack();
  await panelFor(p, "trace-27");
  const parentOf27 = traces.find((t) => t.ID === "27").PARENT;
  await p.click(`#panel a[href="#trace-${parentOf27}"]`);
  await panelFor(p, `trace-${parentOf27}`);
  same("its parent's link opens the parent (traces.csv)", `trace ${parentOf27}, generation 1`,
    await p.textContent("#panel .bar b"));
  await p.goBack();
  await panelFor(p, "trace-27");
  same("back: trace 27's panel again", "trace 27, generation 1", await p.textContent("#panel .bar b"));
  const exitRows = await p.$$eval("#panel table tr", (rs) => rs.slice(1).map((r) => Array.from(r.cells, (c) => c.textContent)));
  const taken27 = exits.filter((e) => e.TRACE === "27").reduce((s, e) => s + Number(e.COUNT), 0);
  same("its exits' times taken = exits.csv", taken27, exitRows.reduce((s, r) => s + Number(r[1]), 0));
  // A large bush full size: zoom and pan.
  await p.click("#panel .bar .close");
  await p.click("#bush-23 button.open");
  await p.waitForSelector("#viewer:not([hidden])");
  const vb = () => p.$eval("#viewer svg", (s) => s.getAttribute("viewBox").split(" ").map(Number));
  const v0 = await vb();
  const stage = await p.$eval("#viewer .stage", (e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; });
  same("opened at 100%: a layout unit is a pixel", [Math.round(stage[0]), Math.round(stage[1])], [Math.round(v0[2]), Math.round(v0[3])]);
  await p.click("#viewer .bar button:has-text('+')");
  await p.waitForFunction((w) => document.querySelector("#viewer svg").viewBox.baseVal.width !== w, v0[2]);
  const v1 = await vb();
  same("+ zooms in by 1.25", Math.round(v0[2] * 0.8), Math.round(v1[2]));
  // The renderer hands pointer moves to the page at its frames: wait until
  // the page has handled the release, which comes after every move (this
  // listener runs after the viewer's), before reading what they did.
  await p.evaluate(() => {
    window.daReleased = null;
    addEventListener("pointerup", (e) => { window.daReleased = [e.clientX, e.clientY]; }, { once: true });
  });
  await p.mouse.move(600, 500);
  await p.mouse.down();
  await p.mouse.move(500, 450, { steps: 4 });
  await p.mouse.up();
  same("the page saw the release where the drag ended", [500, 450],
    await (await p.waitForFunction(() => window.daReleased)).jsonValue());
  const v2 = await vb();
  same("drag pans by the distance dragged", [Math.round(v1[0] + 100 * v1[2] / stage[0]), Math.round(v1[1] + 50 * v1[3] / stage[1])],
    [Math.round(v2[0]), Math.round(v2[1])]);
  // What once made that test fail one run in three on a busy machine: the
  // "+" click's release left a timer that ended the drag begun before it
  // ran (a busy page runs input before timers), one step of four in.  Made
  // to happen every time: a release, then a drag's start in the same task,
  // then the timers due so far (the page's first: same delay, queued
  // earlier), then a move.  After a release, moves pan no more.
  same("a drag begun before the last release's timer ran still pans; a released one does not", [50, 50, 50, 50],
    await p.evaluate(async () => {
      const stage = document.querySelector("#viewer .stage"), svg = document.querySelector("#viewer svg");
      const at = (type, x, y) => stage.dispatchEvent(new PointerEvent(type, { clientX: x, clientY: y, bubbles: true }));
      const x0 = svg.viewBox.baseVal.x, y0 = svg.viewBox.baseVal.y, k = svg.viewBox.baseVal.width / stage.getBoundingClientRect().width;
      at("pointerup", 600, 500);
      at("pointerdown", 600, 500);
      await new Promise((r) => setTimeout(r, 0));
      at("pointermove", 550, 450);
      const panned = [(svg.viewBox.baseVal.x - x0) / k, (svg.viewBox.baseVal.y - y0) / k];
      at("pointerup", 550, 450);
      at("pointermove", 500, 400);
      return panned.concat([(svg.viewBox.baseVal.x - x0) / k, (svg.viewBox.baseVal.y - y0) / k]).map(Math.round);
    }));
  // A wheel event reaches the page after mouse.wheel() returns too: wait
  // until it has (the viewer's listener, on an element, runs before the
  // window's).
  await p.evaluate(() => {
    window.daWheeled = false;
    addEventListener("wheel", () => { window.daWheeled = true; }, { once: true });
  });
  await p.mouse.wheel(0, 300);
  await p.waitForFunction(() => window.daWheeled);
  check("the wheel zooms out", (await vb())[2] > v2[2]);
  await p.click("#viewer .bar button:has-text('close')");
  check("gen page: no console errors", gen.errors.length === 0, gen.errors.join(" | "));
  await p.close();
}

// A generation of 7803 bushes (templates.dump): windowed, sized, quick.
async function templates(browser) {
  const out = path.join(dir, "tpl");
  const { page, errors } = await open(browser, path.join(out, "gen-1-bushes.html"));
  await page.waitForFunction(() => performance.getEntriesByName("rendered").length > 0);
  const rendered = await page.evaluate(() => performance.getEntriesByName("rendered")[0].startTime);
  // How fast is bench/report.mjs's to measure (make bench, medians on an
  // idle machine); a test only asks that the page says it has rendered.
  console.log(`       (7803 bushes: rendered ${Math.round(rendered)} ms after navigation)`);
  check("7803 bushes: the page marks its first screen rendered", rendered > 0, `${rendered}`);
  same("7803 bushes: the data", 7803, await page.evaluate(() => DA_GEN.bushes.length));
  const live = await page.$$eval("section.bush", (s) => s.length);
  check("only the bushes near the screen exist", live > 0 && live < 60, `${live}`);
  const last = await page.evaluate(() => DA_GEN.bushes[DA_GEN.bushes.length - 1][0]);
  await page.evaluate((l) => { location.hash = "#bush-" + l; }, last);
  await page.waitForSelector(`[id="bush-${last}"] g.blk`);
  const top = await page.$eval(`[id="bush-${last}"]`, (s) => s.getBoundingClientRect().top);
  check("#bush-R scrolls to the last bush and draws it", top >= 0 && top < 100, `${top}`);
  const height = await page.$eval("#bushes", (b) => b.getBoundingClientRect().height);
  // Back at the top: the window of bushes is redrawn at the next frame
  // after the scroll; wait until it holds the first bush and not the last.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction((l) => document.getElementById("bush-" + DA_GEN.bushes[0][0]) &&
    !document.getElementById("bush-" + l), last);
  same("the page does not reflow as bushes come and go", height,
    await page.$eval("#bushes", (b) => b.getBoundingClientRect().height));
  // A number that recurs in the generation: #trace-T-K is the K-th.
  const dump = fs.readFileSync(path.join(dir, "templates.dump"), "latin1").split("\n");
  const stops5 = [];
  dump.forEach((l, i) => { if (l.startsWith("---- TRACE 5 stop")) stops5.push(i + 1); });
  await page.evaluate(() => { location.hash = "#trace-5-2"; });
  await page.waitForSelector("#panel:not([hidden])");
  same("#trace-5-2: the second trace numbered 5", "trace 5 (2nd of that number), generation 1",
    await page.textContent("#panel .bar b"));
  same("... whose stop header is the dump's second 'TRACE 5 stop'", true,
    (await page.textContent("#panel dl")).includes("\u2013" + stops5[1]));
  check("7803 bushes: no console errors", errors.length === 0, errors.join(" | "));
  await page.close();
}

async function hostile(browser) {
  const out = path.join(dir, "hostile");
  for (const file of ["index.html", "gen-1-bushes.html"]) {
    const { page, errors, dialogs } = await open(browser, path.join(out, file));
    // What a name turned into markup would run has run once the page's
    // scripts have drawn it (a frame after they ran) and every image has
    // loaded or failed (an onerror fires then).
    await page.waitForFunction(() => document.body.dataset.rendered === "1" &&
      Array.from(document.images).every((i) => i.complete));
    same(`${file}: no dialog opened by names in the dump`, [], dialogs);
    check(`${file}: title untouched`, !(await page.title()).includes("pwned"), await page.title());
    same(`${file}: no element with an event attribute`, 0,
      await page.$$eval("[onerror],[onload]", (es) => es.length));
    same(`${file}: only the report's own scripts`, file === "index.html" ?
      ["inline", "index-traces.js", "inline"] : ["source-links.js", "gen-1-bushes.js", "report-bushes.js"],
      await page.$$eval("script", (s) => s.map((e) => e.getAttribute("src") || "inline")));
    check(`${file}: no console errors`, errors.length === 0, errors.join(" | "));
    if (file === "index.html") {
      const files = (await cells(page, "traces")).map((r) => r[4]);
      check("the script chunk name is shown as text", files.includes("<script>document.title='pwned'</script>"),
        JSON.stringify(files));
      check("quotes and entities are shown as text", files.includes("</script><b>&amp;\"'"), JSON.stringify(files));
      const sites = (await cells(page, "sites")).map((r) => r[0]);
      check("the img chunk name is shown as text", sites.includes("<img src=x onerror=alert(1)>"),
        JSON.stringify(sites));
      const places = await page.$$eval("#fix-first .where", (ws) => ws.map((w) => [w.textContent, w.tagName]));
      same("the first screen's findings: names from the dump as text, no link (no source page)",
        [["\"<svg onload=alert(1)>\":2", "SPAN"], ["<img src=x onerror=alert(1)>:2", "SPAN"]], places);
    } else {
      const text = await page.textContent("main");
      check("gen page shows the name as text", text.includes("root at <script>document.title='pwned'</script>:2"));
      // Every trace's panel, with its text: names stay text there too.
      const ids = await page.evaluate(() => DA_GEN.traces.map((t, i) => "trace-" + t[0] + (t[1] > 1 ? "-" + t[1] : "")));
      let shown = 0;
      for (const id of ids) {
        await page.evaluate((h) => { location.hash = "#" + h; }, id);
        await page.waitForFunction(() => !document.querySelector("#panel .text p.muted") ||
          !document.querySelector("#panel .text p.muted").textContent.startsWith("loading"));
        if ((await page.textContent("#panel dl")).includes("<script>document.title='pwned'</script>:2")) shown++;
      }
      same("the script chunk name shown as text in its trace's panel", 1, shown);
      same("hostile panels: no dialog, no event attributes", [[], 0],
        [dialogs, await page.$$eval("[onerror],[onload]", (es) => es.length)]);
      check("hostile panels: title untouched", !(await page.title()).includes("pwned"));
    }
    await page.close();
  }
}

// With --profile: the section and its flame graph.
async function profiled(browser) {
  const out = path.join(dir, "prof");
  const { page, errors } = await open(browser, path.join(out, "index.html"));
  const lines = csv(path.join(out, "profile-lines.csv"));
  check("profile section shown", await page.isVisible("#profile-section"));
  const rows = await cells(page, "profile");
  const normalOf = {};
  for (const s of csv(path.join(out, "gen-1-abort-sites.csv"))) normalOf[s.REASON] = s.NORMAL_REASON;
  same("profile table: the rows of profile-lines.csv, in its order (first page), reasons in their normal form",
    lines.slice(0, 200).map((l) => [l.FILE, l.LINE, l.ABORTS, normalOf[l.TOP_ABORT_REASON] || l.TOP_ABORT_REASON, l.BLACKLISTED]),
    rows.map((r) => [r[0], r[1], r[8], r[9], r[11]]));
  check("... 'NYI: bytecode 51' shown as FNEW, as written on hover", await page.$$eval("#profile tbody td", (tds) =>
    tds.some((td) => td.textContent === "NYI: bytecode FNEW" && td.title === "as the dump wrote it: NYI: bytecode 51")));
  const total = lines.reduce((t, l) => t + Number(l.SAMPLES), 0);
  same("profile table: shares of all samples", lines.slice(0, 5).map((l) => (100 * l.SAMPLES / total).toFixed(1)),
    rows.slice(0, 5).map((r) => r[2]));
  await page.fill("#profile-filter", "costly");
  const f = await cells(page, "profile");
  same("profile filter: costly.lua's lines", lines.filter((l) => l.FILE === "costly.lua").length, f.length);
  await page.waitForFunction(() => document.querySelector("#flamegraphs img").complete, null, { timeout: 10000 });
  check("flame graph shown and rendered", await page.isVisible("#flamegraphs img") &&
    await page.$eval("#flamegraphs img", (i) => i.naturalWidth > 0 && i.getAttribute("src") === "flamegraph.svg"));
  check("report with a profile: no console errors", errors.length === 0, errors.join(" | "));
  await page.close();
}

// With a sysprof profile: each trace panel and bush header says its
// samples, as profile-traces.csv and profile-bushes.csv count them.
async function timed(browser) {
  const out = path.join(dir, "sysprof");
  const traces = csv(path.join(out, "profile-traces.csv"));
  const bushes = csv(path.join(out, "profile-bushes.csv"));
  const total = 863;    /* phases.sysprof.xz's samples */
  const { page, errors } = await open(browser, path.join(out, "gen-1-bushes.html"));
  const share = (n) => `${n} sample${n === 1 ? "" : "s"} (${(100 * n / total).toFixed(1)}% of the profile)`;
  /* trace 5, 2nd of that number in generation 1: chunk-102's */
  const t = traces.find((r) => r.GEN === "1" && r.TRACE === "5" && r.START === "chunk-102:1");
  await page.evaluate(() => { location.hash = "#trace-5-2"; });
  await page.waitForSelector("#panel:not([hidden])");
  const dl = await page.$$eval("#panel dl dt", (dts) => dts.map((d) => [d.textContent, d.nextElementSibling.textContent]));
  const time = Object.fromEntries(dl).time;
  same("trace 5 (2nd) panel: its time = profile-traces.csv's chunk-102 row", share(Number(t.SAMPLES)), time);
  same("... and it starts where that row says", t.START, Object.fromEntries(dl)["starts at"]);
  const heads = await page.$$eval("#bushes section.bush", (ss) =>
    ss.map((s) => [s.id.replace("bush-", ""), s.querySelector("p").textContent]));
  const gen1 = bushes.filter((b) => b.GEN === "1");
  same("every bush of generation 1 drawn", gen1.length, heads.length);
  let k = 0;
  for (const [label, text] of heads) {
    const b = gen1.find((x) => x.BUSH === label);
    check(`bush ${label} header: its time = profile-bushes.csv`, b && text.endsWith("; " + share(Number(b.SAMPLES))),
      `${text} / ${b && b.SAMPLES}`);
    k++;
  }
  check("bush headers checked", k > 3, String(k));
  // The first screen: the sysprof profile charges the findings by function.
  const top = csv(path.join(out, "findings.csv"))[0];
  await page.goto("file://" + path.resolve(out, "index.html"));
  await page.waitForSelector("body[data-rendered]");
  same("first screen: the shares' heading says the findings are charged by function",
    `Where the time went: ${path.join(samples, "sysprof/phases.sysprof.xz")} (sysprof, ${total} samples; ` +
    "interpreted time is known per Lua function: the findings are charged by function)",
    await page.textContent("#shares .shares-head"));
  same("... the top finding's cost: findings.csv's SHARE and SAMPLES, by function, its EXTENT",
    ["function", `${top.SHARE}% of the samples \u00b7 ${top.SAMPLES} interpreted samples \u00b7 by function, extent from the ${top.EXTENT}`],
    [top.BASIS, await page.locator("#fix-first li.finding").first().locator(".cost").textContent()]);
  // The bushes table ranked by time: its rows, as the page first shows
  // them, are profile-bushes.csv's (every bush of phases.dump: 21, fewer
  // than the 50 the table keeps), in its order (most samples first, then
  // those without in dump order), with its samples and share.
  same("bushes table: titled by time", "Bushes by time", await page.textContent("#bushes-title"));
  same("bushes table: ranked by samples, descending", "descending",
    await header(page, "bushes", "samples").getAttribute("aria-sort"));
  const row = (b) => [b.GEN, b.BUSH, b.TRACES, b.START, b.SAMPLES, b.SHARE];
  const shownRows = async () => (await cells(page, "bushes")).map((c) => [c[0], c[1], c[2], c[4], c[5], c[6]]);
  same(`bushes table = profile-bushes.csv, row for row (${bushes.length})`, bushes.map(row), await shownRows());
  check("... of which some took no sample (listed last, in dump order)",
    bushes.some((b) => b.SAMPLES === "0") && bushes[bushes.length - 1].SAMPLES === "0");
  // Sortable: by traces, then by samples again (ascending, then
  // descending): the samples in order, whatever the ties.
  await sortBy(page, "bushes", "traces", "descending");
  same("bushes table sorted by traces", bushes.map((b) => Number(b.TRACES)).sort((x, y) => y - x),
    (await cells(page, "bushes")).map((c) => Number(c[2])));
  await sortBy(page, "bushes", "samples", "descending");
  same("... and by samples again: profile-bushes.csv's samples, most first", bushes.map((b) => Number(b.SAMPLES)),
    (await cells(page, "bushes")).map((c) => Number(c[5])));
  await sortBy(page, "bushes", "samples", "ascending");
  same("... and least first", bushes.map((b) => Number(b.SAMPLES)).reverse(),
    (await cells(page, "bushes")).map((c) => Number(c[5])));
  check("report with a sysprof profile: no console errors", errors.length === 0, errors.join(" | "));
  await page.close();
}

// The first screen of the shop service's report (samples/shop.dump,
// shop-Gvl.prof, --source-root lua/shop): at 1400x900 it shows the
// profile's shares and the top finding without scrolling, with
// findings.csv's numbers; the finding's source link lands on its line
// of its file's page with the extent marked, and its attempt link opens
// the attempt's panel with the dump's bytecode.
async function fixFirst(browser) {
  const out = path.join(dir, "shop");
  const rows = csv(path.join(out, "findings.csv"));
  const top = rows[0];
  const dump = fs.readFileSync(path.join(samples, "shop.dump"), "latin1").split("\n");
  const { page, errors } = await open(browser, path.join(out, "index.html"), { width: 1400, height: 900 });
  await page.waitForSelector("body[data-rendered]");
  const card = page.locator("#fix-first li.finding").first();
  same("the first card is finding 1", "finding-1", await card.getAttribute("id"));
  const box = await card.boundingBox();
  check("at 1400x900 the top finding is on the first screen, whole, without scrolling",
    box && box.y > 0 && box.y + box.height <= 900 && await page.evaluate(() => window.scrollY) === 0,
    JSON.stringify(box));
  const shown = await card.evaluate((li) => {
    const dd = {};
    li.querySelectorAll("dt").forEach((dt) => { dd[dt.textContent] = dt.nextElementSibling; });
    return {
      rank: li.querySelector(".rank").textContent, where: li.querySelector(".where").textContent,
      kind: li.querySelector(".kind").textContent, sev: li.querySelector(".sev").textContent,
      cost: li.querySelector(".cost").textContent, why: dd.why.textContent,
      reasonTitle: dd.why.firstChild.title, at: dd.where.textContent,
      bytecode: dd.where.querySelector("code").textContent, fix: dd.fix.textContent,
      beside: dd.beside ? dd.beside.textContent : "",
    };
  });
  same("its rank, place (the loop's extent), kind and severity = findings.csv's",
    [top.RANK, `${top.FILE}:${top.LINE}\u2013${top.END_LINE}`, top.KIND, top.SEVERITY],
    [shown.rank, shown.where, shown.kind, shown.sev]);
  same("its cost = SHARE, SAMPLES and BASIS",
    `${top.SHARE}% of the samples \u00b7 ${top.SAMPLES} interpreted samples \u00b7 extent from the ${top.BASIS}`, shown.cost);
  same("why: the main reason, its error, its attempts of all",
    `${top.REASON} (${top.ERROR}) in ${top.REASON_ATTEMPTS} of ${top.ATTEMPTS} aborted attempts` +
    (top.BLACKLISTED !== "0" ? `; likely given up on in ${top.BLACKLISTED} generation${top.BLACKLISTED === "1" ? "" : "s"}` : ""),
    shown.why);
  same("... the reason as the dump wrote it (its abort line) on hover",
    "as the dump wrote it: " + dump[Number(top.DUMP_LINE) - 1].replace(/^---- TRACE \d+ abort .* -- /, ""), shown.reasonTitle);
  same("where: the failing line, the cause (the closure's line), the failed bytecode, the attempt",
    `fails at ${top.AT_FILE}:${top.AT_LINE} \u00b7 cause ${top.CAUSE_FILE}:${top.CAUSE_LINE} \u00b7 ${top.BYTECODE} \u00b7 ` +
    `the failed attempt (dump line ${top.DUMP_LINE})`, shown.at);
  same("... the cause is the line the FNEW names", `; ${top.CAUSE_FILE}:${top.CAUSE_LINE}`,
    shown.bytecode.replace(/^.*(; .*)$/, "$1"));
  same("fix: ADVICE", top.ADVICE, shown.fix);
  same("beside: COMPILED, C, GC samples (not its cost)",
    [[top.COMPILED, "compiled"], [top.C, "C"], [top.GC, "GC"], [top.JIT, "JIT"]].filter((x) => x[0] !== "0")
      .map((x) => x.join(" ")).join(", ") + " samples there: not a JIT failure's cost", shown.beside);
  // The shares: the profile's stacks summed under each VM state.
  const prof = fs.readFileSync(path.join(samples, "shop-Gvl.prof"), "utf8").split("\n");
  const states = { "Interpreted": 0, "Compiled": 0, "C code": 0, "Garbage Collector": 0, "JIT Compiler": 0 };
  let state = null, all = 0;
  for (const l of prof) {
    const m = l.match(/^(Interpreted|Compiled|C code|Garbage Collector|JIT Compiler) \d+$/);
    if (m) { state = m[1]; continue; }
    const n = l.match(/ (\d+)$/);
    if (n && state) { states[state] += Number(n[1]); all += Number(n[1]); }
  }
  const legend = await page.$$eval("#shares ul.legend li", (lis) => lis.map((li) => li.textContent));
  const pct = (v) => (100 * v / all).toFixed(1);
  same("the shares by VM state above it = the profile's stacks",
    [`interpreted ${pct(states.Interpreted)}% ${states.Interpreted} (JIT failures cost only these)`,
      `compiled ${pct(states.Compiled)}% ${states.Compiled}`, `C code ${pct(states["C code"])}% ${states["C code"]}`,
      `garbage collector ${pct(states["Garbage Collector"])}% ${states["Garbage Collector"]}`,
      `JIT compiler ${pct(states["JIT Compiler"])}% ${states["JIT Compiler"]}`], legend);
  const sharesBox = await page.locator("#shares").boundingBox();
  check("... on the first screen too", sharesBox && sharesBox.y + sharesBox.height <= 900, JSON.stringify(sharesBox));
  const charged = rows.reduce((t, r) => t + Number(r.SAMPLES), 0);
  same("charged to the findings = findings.csv's SAMPLES summed",
    `Charged to the findings: ${charged} interpreted samples, ${pct(charged)}% of all samples (` +
    `${(100 * charged / states.Interpreted).toFixed(1)}% of the interpreted).`, await page.textContent("#charged"));
  if (process.env.DA_SCREENSHOTS)
    await page.screenshot({ path: path.join(process.env.DA_SCREENSHOTS, "report-overview.png") });

  // Its source link: the loop's line on its file's page, the extent marked.
  const pageOf = fs.readFileSync(path.join(out, "source-index.html"), "utf8")
    .match(new RegExp(`<a href="(source-\\d+\\.html)">${top.FILE}</a>`))[1];
  same("its place links its file's page (source-index.html) at its line",
    `${pageOf}#L${top.LINE}`, await card.locator("a.where").getAttribute("href"));
  await card.locator("a.where").click();
  await page.waitForURL((u) => u.href.endsWith(`/${pageOf}#L${top.LINE}`));
  await page.waitForSelector(`tr#L${top.LINE}`);
  const src = fs.readFileSync(path.join(samples, "lua/shop", top.FILE), "utf8").split("\n");
  same("... it lands on that line: the one the address targets, the file's text there",
    [`L${top.LINE}`, src[Number(top.LINE) - 1]],
    await page.$eval("tr:target", (tr) => [tr.id, tr.querySelector("td.c").textContent]));
  const lineBox = await page.locator(`tr#L${top.LINE}`).boundingBox();
  check("... which is on the screen", lineBox && lineBox.y >= 0 && lineBox.y + lineBox.height <= 900, JSON.stringify(lineBox));
  const marked = await page.$$eval("tr.ext", (trs) =>
    trs.filter((tr) => tr.dataset.findings.split(" ").includes("1")).map((tr) => tr.id));
  const extent = [];
  for (let l = Number(top.LINE); l <= Number(top.END_LINE); l++) extent.push(`L${l}`);
  same("... the finding's whole extent marked, LINE to END_LINE", extent, marked);
  same("... under its first line, the finding's rank and advice, and a link back",
    [`finding 1 \u00b7 ${top.KIND} \u00b7 ${top.SEVERITY}`, true, "index.html#finding-1"],
    await page.$eval("#finding-1", (tr, advice) => [tr.querySelector("div").textContent.replace(/ \u00b7 lines.*$/s, ""),
      tr.querySelector("div").textContent.includes(advice),
      tr.querySelector('a[href^="index.html"]').getAttribute("href")], top.ADVICE));
  if (process.env.DA_SCREENSHOTS)
    await page.screenshot({ path: path.join(process.env.DA_SCREENSHOTS, "report-source.png") });
  await page.click('#finding-1 a[href="index.html#finding-1"]');
  await page.waitForURL((u) => u.href.endsWith("/index.html#finding-1"));
  await page.waitForSelector("#finding-1.target");
  check("... which leads back to the finding on the first screen", true);

  // Its attempt link: the attempt's panel, with the dump's bytecode.
  const attempt = page.locator("#finding-1 a.attempt");
  same("its attempt links the attempt's panel", `gen-1-bushes.html#abort-${top.DUMP_LINE}`, await attempt.getAttribute("href"));
  await attempt.click();
  await page.waitForURL((u) => u.href.endsWith(`/gen-1-bushes.html#abort-${top.DUMP_LINE}`));
  await panelFor(page, `abort-${top.DUMP_LINE}`);
  await page.waitForSelector("#panel:not([hidden]) pre.dumptext");
  same("... the panel of the abort at that dump line",
    `aborted attempt, trace number ${dump[Number(top.DUMP_LINE) - 1].match(/^---- TRACE (\d+) abort/)[1]}, dump line ${top.DUMP_LINE}`,
    await page.textContent("#panel .bar b"));
  let st = Number(top.DUMP_LINE) - 1;
  while (st > 0 && !/^---- TRACE \d+ start /.test(dump[st - 1])) st--;
  const recorded = dump.slice(st, Number(top.DUMP_LINE) - 1).filter((l) => /^\d{4} /.test(l));
  same("... its last bytecodes recorded = the dump's, the last one BYTECODE",
    [recorded.slice(-4).join("\n"), top.BYTECODE],
    await page.$eval("#panel pre.dumptext", (p) => [p.textContent, p.textContent.split("\n").pop()]));

  // A finding below the first screen's: #finding-R shows its table row.
  const below = rows.find((r) => r.SAME_CAUSE !== "");
  await page.goto("file://" + path.resolve(out, "index.html") + `#finding-${below.RANK}`);
  await page.waitForSelector(`#findings tr#finding-${below.RANK}.target`);
  const rowBox = await page.locator(`#findings tr#finding-${below.RANK}`).boundingBox();
  check(`#finding-${below.RANK} (fixed with finding ${below.SAME_CAUSE}): its row in the table, on screen`,
    // scrolled to its top, which may sit a fraction of a pixel above 0
    rowBox && rowBox.y > -1 && rowBox.y < 900, JSON.stringify(rowBox));
  check("first screen, source page, attempt panel: no console errors", errors.length === 0, errors.join(" | "));
  await page.close();
}

let browser;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  await penlight(browser);
  await hostile(browser);
  await templates(browser);
  await profiled(browser);
  await timed(browser);
  await fixFirst(browser);
} catch (e) {
  check("the browser tests ran to their end", false, String(e && e.stack || e));
} finally {
  if (browser) await browser.close();
}
console.log(`browser: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
