// report.mjs OUT — how the HTML report in OUT behaves in Debian's
// chromium: time to load index.html (with its trace rows), to sort the
// traces table by a click and to filter it by a typed file name.  Medians
// of 5 tries each, in milliseconds.
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
await browser.close();
console.log(`  ${rows} trace rows: load ${median(load)} ms, sort by a click ${median(sort).toFixed(0)} ms, ` +
  `filter ${median(filter).toFixed(0)} ms (medians of 5)`);
