// report-findings.mjs OUT DUMP SRCDIR — reads the findings of the report in
// OUT (the JSON of index.html) as the page does and prints what it holds
// against findings.csv, the source pages, the generation pages and the
// dump, for report.sh to check:
//   rows N, csv-rows N                 findings in the report, in findings.csv
//   csv-extents N, csv-dump-lines N    findings.csv's rows with an extent, a
//                                      dump line
//   csv-extents-paged N                those with an extent in a file that
//                                      has a source page
//   compared N, differ N               fields compared with findings.csv's
//   ranks-in-order 0|1                 rank i+1 at row i
//   href-checked N, href-bad N         each start's link: its file's page
//                                      (source-index.html) at its line, whose
//                                      text is the source file's line; every
//                                      line of the extent marked with its rank,
//                                      a row under the first that names it and
//                                      links back to index.html#finding-R
//   href-missing N                     findings in a file with a page but no link
//   attempt-checked N, attempt-bad N   each failed attempt's link: an abort
//                                      line of the dump, in the generation the
//                                      flushes before it give, a row of that
//                                      generation's data whose last bytecode
//                                      is BYTECODE
//   top R ...                          the ranks the first screen lists
//   shares T I C G J K charged         the profile's totals in the data
import fs from "node:fs";
import vm from "node:vm";
import path from "node:path";
import { csv } from "./csv.mjs";

const [out, dumpFile, srcDir] = process.argv.slice(2);

const html = fs.readFileSync(path.join(out, "index.html"), "utf8");
const json = html.slice(html.indexOf('<script type="application/json" id="da-data">') + 46,
  html.indexOf("</script>", html.indexOf('id="da-data"')));
const data = JSON.parse(json);
const F = data.findings.rows.map((r) => Object.fromEntries(data.findings.cols.map((c, i) => [c, r[i]])));
const rows = csv(path.join(out, "findings.csv"));
console.log(`rows ${F.length}\ncsv-rows ${rows.length}`);
console.log(`csv-extents ${rows.filter((r) => r.FILE && r.LINE && r.BASIS !== "none").length}`);
console.log(`csv-dump-lines ${rows.filter((r) => r.DUMP_LINE).length}`);
console.log(`ranks-in-order ${F.every((f, i) => f.rank === i + 1) ? 1 : 0}`);

// The report's value as findings.csv writes it.
const str = (v) => (v === null || v === undefined ? "" : String(v));
const samples = (v) => (v === null ? "" : data.shares && data.shares.percent ?
  `${Math.floor(v / 100)}.${String(v % 100).padStart(2, "0")}` : String(v));
const fields = {
  RANK: (f) => str(f.rank), KIND: (f) => str(f.kind), FILE: (f) => str(f.file), LINE: (f) => str(f.line),
  END_LINE: (f) => str(f.end_line), CAUSE_FILE: (f) => str(f.cause_file), CAUSE_LINE: (f) => str(f.cause_line),
  REASON: (f) => str(f.reason), ERROR: (f) => str(f.error), SEVERITY: (f) => str(f.level),
  ATTEMPTS: (f) => str(f.attempts), SAMPLES: (f) => samples(f.samples),
  SHARE: (f) => (f.share === null ? "" : f.share.toFixed(2)), BASIS: (f) => str(f.basis), ID: (f) => str(f.id),
  ADVICE: (f) => str(f.advice), RULE: (f) => str(f.rule), AT_FILE: (f) => str(f.at_file),
  AT_LINE: (f) => str(f.at_line), REASON_ATTEMPTS: (f) => str(f.reason_attempts),
  OTHER_REASONS: (f) => f.others.map((o) => `${o[1]} ${o[0]}`).join("; "),
  BLACKLISTED: (f) => str(f.blacklisted), TRACES: (f) => str(f.traces), COUNT: (f) => str(f.count),
  SCORE: (f) => str(f.score), BYTECODE: (f) => str(f.bytecode), DUMP_LINE: (f) => str(f.dump_line),
  IDENTITY: (f) => str(f.identity), SAME_CAUSE: (f) => (f.same_cause ? String(f.same_cause) : ""),
  COMPILED: (f) => (f.beside ? samples(f.beside[0]) : ""), C: (f) => (f.beside ? samples(f.beside[1]) : ""),
  GC: (f) => (f.beside ? samples(f.beside[2]) : ""), JIT: (f) => (f.beside ? samples(f.beside[3]) : ""),
  GENS: (f) => (f.gen_first ? (f.gen_last > f.gen_first ? `${f.gen_first}-${f.gen_last}` : `${f.gen_first}`) : ""),
};
let compared = 0, differ = 0, first = null;
rows.forEach((r, i) => {
  const f = F[i];
  for (const [k, get] of Object.entries(fields)) {
    compared++;
    const got = f ? get(f) : undefined;
    if (got !== r[k]) { differ++; if (!first) first = `rank ${r.RANK} ${k}: csv ${JSON.stringify(r[k])}, report ${JSON.stringify(got)}`; }
  }
});
console.log(`compared ${compared}\ndiffer ${differ}`);
if (first) console.log(`first-difference ${first}`);

// The source pages: FILE -> source-K.html, from source-index.html.
const pages = {};
const index = fs.existsSync(path.join(out, "source-index.html")) ?
  fs.readFileSync(path.join(out, "source-index.html"), "utf8") : "";
for (const m of index.matchAll(/<a href="(source-\d+\.html)">([^<]*)<\/a>/g)) pages[m[2]] = m[1];
// (a chunk that is no file, "tpl-item", has an extent from the trace, no page)
console.log(`csv-extents-paged ${rows.filter((r) => r.FILE && r.LINE && r.BASIS !== "none" && pages[r.FILE]).length}`);
const unescape = (s) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
  .replace(/&#39;/g, "'").replace(/&amp;/g, "&");
let hrefChecked = 0, hrefBad = 0, hrefMissing = 0;
const why = [];
for (const f of F) {
  if (!f.file || f.line === null || f.basis === "none") continue;
  const page = pages[f.file];
  if (!page) { if (f.href !== null) { hrefBad++; why.push(`rank ${f.rank}: a link without a page`); } continue; }
  if (f.href === null) { hrefMissing++; continue; }
  hrefChecked++;
  const text = fs.readFileSync(path.join(out, page), "utf8");
  const bad = (w) => { hrefBad++; why.push(`rank ${f.rank}: ${w}`); };
  if (f.href !== `${page}#L${f.line}`) { bad(`link ${f.href}, page ${page} line ${f.line}`); continue; }
  const src = fs.readFileSync(path.join(srcDir, f.file), "utf8").split("\n");
  const m = text.match(new RegExp(`<tr id="L${f.line}"[^>]*>.*<td class="c">(.*)</td></tr>`));
  if (!m || unescape(m[1]) !== src[f.line - 1]) bad(`line ${f.line}'s text`);
  for (let l = f.line; l <= f.end_line; l++) {
    const row = text.match(new RegExp(`<tr id="L${l}" class="[^"]*\\bext\\b[^"]*" data-findings="([0-9 ]*)"`));
    if (!row || !row[1].split(" ").includes(String(f.rank))) { bad(`line ${l} not marked`); break; }
  }
  if (text.match(new RegExp(`<tr id="L${f.end_line + 1}" class="[^"]*" data-findings="([0-9 ]*)"`)) &&
      text.match(new RegExp(`<tr id="L${f.end_line + 1}" class="[^"]*" data-findings="([0-9 ]*)"`))[1]
        .split(" ").includes(String(f.rank))) bad(`line ${f.end_line + 1} marked past the extent`);
  const after = text.slice(text.indexOf(`<tr id="L${f.line}"`));
  const next = after.slice(after.indexOf("\n") + 1);
  const banner = next.match(new RegExp(`<tr class="finding" id="finding-${f.rank}">.*</tr>`));
  if (!banner || !banner[0].includes(`<a href="index.html#finding-${f.rank}">`) ||
      !banner[0].includes(`<span class="fr">finding ${f.rank}</span>`)) bad("no row naming it under its first line");
}
console.log(`href-checked ${hrefChecked}\nhref-bad ${hrefBad}\nhref-missing ${hrefMissing}`);
if (why.length) console.log(`href-why ${why.slice(0, 3).join(" | ")}`);

// The failed attempts: each an abort line of the dump, in its generation.
const dump = fs.readFileSync(dumpFile, "latin1").split("\n");
const genOf = [];           /* the generation of each dump line */
let g = 1;
dump.forEach((l, i) => { genOf[i + 1] = g; if (/^---- TRACE flush/.test(l)) g++; });
const gens = {};
function genData(n) {
  if (!gens[n]) {
    const ctx = {};
    vm.runInNewContext(fs.readFileSync(path.join(out, `gen-${n}-bushes.js`), "utf8") + ";this.D = DA_GEN;", ctx);
    gens[n] = ctx.D;
  }
  return gens[n];
}
let attChecked = 0, attBad = 0;
for (const f of F) {
  if (!f.dump_line) continue;
  attChecked++;
  const head = dump[f.dump_line - 1];
  const a = /^---- TRACE \d+ abort /.test(head) && f.abort_gen === genOf[f.dump_line] ?
    genData(f.abort_gen).aborts.find((x) => x[0] === f.dump_line) : null;
  if (!a || a[7][a[7].length - 1] !== f.bytecode) attBad++;
}
console.log(`attempt-checked ${attChecked}\nattempt-bad ${attBad}`);
console.log(`top ${F.filter((f) => f.listed).slice(0, data.top).map((f) => f.rank).join(" ")}`);
const sh = data.shares;
if (sh) console.log(`shares ${sh.total} ${sh.state.join(" ")} ${sh.charged}`);
