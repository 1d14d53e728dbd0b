// source.test.mjs DIR SAMPLES — the source view's pages in a real browser:
// DIR/src (samples/annotated.dump with its program under --source-root,
// and the report), DIR/srchostile (hostile.dump: chunk names that are
// markup).  Source text and chunk names stay text; a line's link leads
// to its trace in the report.  Prints "browser-source: N passed, N failed".
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";

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

async function open(browser, file) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors = [], dialogs = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("dialog", (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto("file://" + path.resolve(file), { waitUntil: "load" });
  return { page, errors, dialogs };
}

async function annotated(browser) {
  const out = path.join(dir, "src");
  const lua = fs.readFileSync(path.join(samples, "lua", "annotated.lua"), "utf8").split("\n");
  lua.pop();                                  /* the last newline */
  const { page, errors, dialogs } = await open(browser, path.join(out, "source-1.html"));
  same("source page: title is the chunk name", "annotated.lua", await page.title());
  const code = await page.$$eval("tr[id^=L] td.c", (tds) => tds.map((td) => td.textContent));
  same("source page: every line's text is the file's, byte for byte (markup included)", lua, code);
  same("source page: no script element, no dialog, no error", [0, [], []],
    [await page.locator("script").count(), dialogs, errors]);
  same("source page: the comment's markup did not become elements", 0,
    await page.locator("table.src img, table.src b, table.src svg").count());
  if (process.env.DA_SCREENSHOTS) {
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.screenshot({ path: path.join(process.env.DA_SCREENSHOTS, "source-annotated.png"), fullPage: true });
    await page.setViewportSize({ width: 1300, height: 1000 });
  }

  // Line 14: the compiled loop; its link goes to the trace in the report.
  const dump = fs.readFileSync(path.join(samples, "annotated.dump"), "utf8").split("\n");
  const start = dump.find((l) => /^---- TRACE \d+ start annotated\.lua:14$/.test(l));
  const id = start.split(" ")[2];
  const link = page.locator(`tr.ann a[href="gen-1-bushes.html#trace-${id}"]`).first();
  same("source page: line 14's story links its trace", `gen 1 trace ${id}`, await link.textContent());
  await Promise.all([page.waitForNavigation(), link.click()]);
  const url = new URL(page.url());
  same("click: lands on the trace's anchor in the report", [`gen-1-bushes.html`, `#trace-${id}`],
    [path.basename(url.pathname), url.hash]);
  await page.goBack();
  same("back: the source page again", "source-1.html", path.basename(new URL(page.url()).pathname));

  // A line anchor: #L21 is the aborting closure, its row targeted.
  await page.goto("file://" + path.resolve(path.join(out, "source-1.html")) + "#L21");
  same("anchor #L21: the row of line 21", lua[20], await page.$eval("tr:target td.c", (td) => td.textContent));
  const aborts = (dump.filter((l) => /^---- TRACE \d+ abort annotated\.lua:21 /.test(l))).length;
  const badge = await page.$eval("#L21 td.g", (td) => td.textContent);
  check("anchor #L21: its gutter counts its aborts", badge.includes(`\u2717${aborts}`), badge);
  await page.close();

  const idx = await open(browser, path.join(out, "source-index.html"));
  await Promise.all([idx.page.waitForNavigation(), idx.page.locator('a[href="source-1.html"]').click()]);
  same("index: the file's link opens its page", "source-1.html", path.basename(new URL(idx.page.url()).pathname));
  await idx.page.close();
}

// issue 21's path: from index.html's top abort site to its source line,
// then from the line to the failed attempt's panel on the generation page.
async function fromIndex(browser) {
  const out = path.join(dir, "src");
  const lua = fs.readFileSync(path.join(samples, "lua", "annotated.lua"), "utf8").split("\n");
  const dump = fs.readFileSync(path.join(samples, "annotated.dump"), "utf8").split("\n");
  const { page, errors } = await open(browser, path.join(out, "index.html"));
  const top = page.locator("#sites tbody tr").first();
  const line = Number(await top.locator("td:nth-child(2)").textContent());
  same("index: the top site is annotated.lua's most aborting line", ["annotated.lua", 21],
    [await top.locator("td:nth-child(1)").textContent(), line]);
  const link = top.locator("td:nth-child(2) a");
  same("index: the top site's line links its source page", `source-1.html#L${line}`, await link.getAttribute("href"));
  same("index: links the source files' index", "source-index.html",
    await page.locator("nav a#source-index").getAttribute("href"));
  await Promise.all([page.waitForNavigation(), link.click()]);
  const url = new URL(page.url());
  same("click: lands on the source page at that line", ["source-1.html", `#L${line}`],
    [path.basename(url.pathname), url.hash]);
  same("the targeted line's text is the file's line", lua[line - 1],
    await page.$eval("tr:target td.c", (td) => td.textContent));
  // The line's story: its first failed attempt, to its panel.
  const first = page.locator(`#L${line} + tr.ann a[href*="#abort-"]`).first();
  const href = await first.getAttribute("href");
  const abortLine = Number((href.match(/#abort-(\d+)$/) || [])[1]);
  check("the line's first attempt is an abort at that line in the dump",
    new RegExp(`^---- TRACE \\d+ abort annotated\\.lua:${line} `).test(dump[abortLine - 1]), href);
  await Promise.all([page.waitForNavigation(), first.click()]);
  await page.waitForSelector("#panel:not([hidden])");
  same("click: the generation page, the attempt's anchor", ["gen-1-bushes.html", `#abort-${abortLine}`],
    [path.basename(new URL(page.url()).pathname), new URL(page.url()).hash]);
  await page.waitForSelector("#panel .text pre.dumptext", { timeout: 10000 });
  let st = abortLine - 1;
  while (st > 0 && !/^---- TRACE \d+ start /.test(dump[st - 1])) st--;
  same("its panel: the attempt's recorded bytecode = the dump's lines",
    dump.slice(st, abortLine - 1).filter((l) => /^\d{4} /.test(l)).join("\n") + "\n",
    await page.$eval("#panel .text pre.dumptext", (p) => p.textContent));
  // The panel's places link back to their source lines (source-links.js).
  const startLoc = dump[st - 1].replace(/^---- TRACE \d+ start /, "");
  const places = await page.$$eval("#panel dl dd a", (as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
  same("its panel: 'aborted at' and 'started at' link their source lines",
    [[`annotated.lua:${line}`, `source-1.html#L${line}`],
      [startLoc, `source-1.html#L${startLoc.replace(/^.*:/, "")}`]],
    places.filter((p) => /^source-/.test(p[1])));
  const back = page.locator(`#panel dl dd a[href="source-1.html#L${line}"]`);
  await Promise.all([page.waitForNavigation(), back.click()]);
  same("click: back to the source line", ["source-1.html", `#L${line}`],
    [path.basename(new URL(page.url()).pathname), new URL(page.url()).hash]);
  same("index -> source -> attempt -> source: no console errors", [], errors);
  await page.close();
}

async function hostile(browser) {
  const { page, errors, dialogs } = await open(browser, path.join(dir, "srchostile", "source-index.html"));
  const names = await page.$$eval("tbody td.f:nth-child(2)", (tds) => tds.map((td) => td.textContent));
  const dump = fs.readFileSync(path.join(samples, "hostile.dump"), "utf8");
  const want = ["<script>document.title='pwned'</script>", "<img src=x onerror=alert(1)>",
    "</script><b>&amp;\"'", "\"<svg onload=alert(1)>\""];
  same("hostile index: the four chunk names, as text", want.slice().sort(), names.slice().sort());
  check("hostile index: each name is in the dump", want.every((n) => dump.includes(n)));
  same("hostile index: title untouched, no dialog, no error, no element from a name",
    ["source files", [], [], 0],
    [await page.title(), dialogs, errors, await page.locator("tbody img, tbody svg, tbody b, tbody script").count()]);
  await page.close();
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium" });
try {
  await annotated(browser);
  await fromIndex(browser);
  await hostile(browser);
} catch (e) {
  check("no exception", false, e.stack);
}
await browser.close();
console.log(`browser-source: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
