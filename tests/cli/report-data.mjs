// report-data.mjs OUT GEN DUMP — reads gen-GEN-bushes.js of the report in
// OUT as a page would, decompresses its text chunks, and prints what the
// data holds, for report.sh to compare with the dump: "traces N",
// "bushes N", "blocks N" (traces placed in a bush's layout), "aborts N",
// "text-same N", "text-differs N" (kept texts against the dump's lines
// between the trace's start and stop headers, headers left out),
// "not-kept N", "chunks N", "site-linked N" (attempts whose text is the
// first attempt's at the same site).
import fs from "node:fs";
import vm from "node:vm";
import zlib from "node:zlib";
import path from "node:path";

const [out, gen, dumpFile] = process.argv.slice(2);
const ctx = {};
vm.runInNewContext(fs.readFileSync(path.join(out, `gen-${gen}-bushes.js`), "utf8") + ";this.D = DA_GEN;", ctx);
const D = ctx.D;
const chunks = {};
function chunk(k) {
  if (!chunks[k]) {
    const c = {};
    vm.runInNewContext(fs.readFileSync(path.join(out, `gen-${gen}-text-${k}.js`), "utf8"),
      { DA_CHUNK: (g, kk, b64) => { c.g = g; c.k = kk; c.bytes = zlib.gunzipSync(Buffer.from(b64, "base64")); } });
    if (c.g !== Number(gen) || c.k !== k) throw new Error(`chunk ${k} names gen ${c.g} chunk ${c.k}`);
    chunks[k] = c.bytes;
  }
  return chunks[k];
}
const lines = fs.readFileSync(dumpFile, "latin1").split("\n");
let same = 0, differs = 0, notKept = 0, firstBad = null;
// The dump's lines after the start header (and the lines a chunk name
// with newlines carries it over) up to the stop or abort header.
function dumpText(from, to, locLines, noMcode) {
  let body = lines.slice(from + Math.max(locLines, 0), to - 1);
  if (noMcode) {            /* kept without its machine code (the budget) */
    const m = body.findIndex((l) => /^---- TRACE \d+ mcode /.test(l));
    if (m >= 0) body = body.slice(0, m);
  }
  if (locLines < 0) {       /* an attempt: its LOC's lines are not in the data */
    let k = 0;
    while (k < body.length && !/^\d{4} /.test(body[k])) k++;
    body = body.slice(k);
  }
  return body.filter((l) => !l.startsWith("---- TRACE ")).map((l) => l + "\n").join("");
}
function compare(ref, from, to, locLines, what) {
  const want = dumpText(from, to, locLines, ref && ref[6]);
  if (!ref) { if (want === "") same++; else notKept++; return; }
  const bytes = chunk(ref[0]);
  const len = ref[2] + ref[3] + ref[4] + ref[5];
  const got = bytes.subarray(ref[1], ref[1] + len).toString("latin1");
  if (got === want) same++;
  else { differs++; if (!firstBad) firstBad = `${what}: ${JSON.stringify(want.slice(0, 200))} vs ${JSON.stringify(got.slice(0, 200))}`; }
}
for (const t of D.traces) compare(t[17], t[14], t[15], t[5].split("\n").length - 1, `trace ${t[0]}`);
let linked = 0;
for (const a of D.aborts) {
  if (a[9]) linked++;   /* a site's later attempt: its text is the first's */
  else if (a[6]) compare(a[8], a[6], a[0], -1, `abort line ${a[0]}`);
}
let blocks = 0;
for (const b of D.bushes) blocks += b[5].length;
console.log(`traces ${D.traces.length}\nbushes ${D.bushes.length}\nblocks ${blocks}\naborts ${D.aborts.length}`);
console.log(`text-same ${same}\ntext-differs ${differs}\nnot-kept ${notKept}\nchunks ${D.chunks}\nsite-linked ${linked}`);
if (firstBad) console.log(`first-difference ${firstBad}`);
