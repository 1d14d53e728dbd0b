// report.mjs OUT [PAGE...] — how the HTML report in OUT behaves in
// Debian's chromium: time to load index.html (with its trace rows), to
// sort the traces table by a click and to filter it by a typed file name;
// then for index.html and each PAGE (say gen-1-bushes.html): first
// contentful paint and the "rendered" mark the page sets once its first
// screen is drawn.  Medians of 5 tries each, in milliseconds.
import { chromium } from "../tests/browser/node_modules/playwright-core/index.mjs";
import path from "node:path";

const out = process.argv[2];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
const load = [], sort = [], filter = [];
let rows = 0;
for (let i = 0; i < 5; i++) {
  const page = await browser.newPage();
  const t0 = Date.now();
  await page.goto("file://" + path.resolve(out, "index.html"), { waitUntil: "load" });
  load.push(Date.now() - t0);
  rows = await page.evaluate(() => DA_TRACES.length);
  // The handlers are synchronous: the time around dispatching the event
  // is the time until the new rows are in the page.
  sort.push(await page.evaluate(() => {
    const th = Array.from(document.querySelectorAll("#traces th")).find((h) => h.textContent === "mcode bytes");
    const t = performance.now();
    th.click();
    return performance.now() - t;
  }));
  filter.push(await page.evaluate(() => {
    const input = document.getElementById("trace-filter");
    input.value = "lua";
    const t = performance.now();
    input.dispatchEvent(new Event("input"));
    return performance.now() - t;
  }));
  await page.close();
}
const paints = [];
for (const name of ["index.html", ...process.argv.slice(3)]) {
  const fcp = [], done = [];
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
    await page.goto("file://" + path.resolve(out, name), { waitUntil: "load" });
    await page.waitForFunction(() => performance.getEntriesByName("rendered").length > 0);
    const [f, r] = await page.evaluate(() => [
      (performance.getEntriesByName("first-contentful-paint")[0] || { startTime: NaN }).startTime,
      performance.getEntriesByName("rendered")[0].startTime]);
    fcp.push(f);
    done.push(r);
    await page.close();
  }
  paints.push(`  ${name}: first contentful paint ${median(fcp).toFixed(0)} ms, rendered ${median(done).toFixed(0)} ms ` +
    `(medians of 5; range ${Math.min(...done).toFixed(0)}-${Math.max(...done).toFixed(0)} ms)`);
}
await browser.close();
console.log(`  ${rows} trace rows: load ${median(load)} ms, sort by a click ${median(sort).toFixed(0)} ms, ` +
  `filter ${median(filter).toFixed(0)} ms (medians of 5)`);
console.log(paints.join("\n"));
