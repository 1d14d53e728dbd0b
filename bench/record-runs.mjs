// record-runs.mjs NAME DIR RUNS STATES — the statistics record-runs.sh
// prints for one recorded workload (DIR: record's output; STATES: per
// profile run "interpreted total" samples).
import fs from "node:fs";
import { csv } from "../tests/cli/csv.mjs";

const [name, dir, runsArg, statesFile] = process.argv.slice(2);
const runs = Number(runsArg);
const shares = fs.readFileSync(statesFile, "utf8").trim().split("\n")
  .map((l) => l.split(" ").map(Number)).map(([i, t]) => ({ pct: 100 * i / t, samples: t }));
if (shares.length !== runs) throw new Error(`${shares.length} profiles, not ${runs}`);
const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
const pct = shares.map((s) => s.pct), m = mean(pct);
const sd = Math.sqrt(pct.reduce((s, x) => s + (x - m) ** 2, 0) / (pct.length - 1));
const secs = [];
for (const kind of ["dump", "prof"])
  for (let k = 1; k <= runs; k++)
    secs.push(JSON.parse(fs.readFileSync(`${dir}/runs/run-${kind}-${k}.json`, "utf8")).seconds);
// findings by identity: in how many dump runs each appears
const seen = new Map();
for (let k = 1; k <= runs; k++) {
  const ids = new Set(csv(`${dir}/run-${k}/findings.csv`).map((r) => r.IDENTITY));
  for (const id of ids) seen.set(id, (seen.get(id) || 0) + 1);
}
const hist = new Array(runs + 1).fill(0);
for (const n of seen.values()) hist[n]++;
console.log(`${name}: ${runs} dump runs, ${runs} profile runs, ${mean(secs).toFixed(2)} s a run`);
console.log(`  interpreted share: mean ${m.toFixed(1)}%, sd ${sd.toFixed(1)} points, ` +
  `min ${Math.min(...pct).toFixed(1)}%, max ${Math.max(...pct).toFixed(1)}%, ` +
  `samples ${Math.min(...shares.map((s) => s.samples))}-${Math.max(...shares.map((s) => s.samples))}`);
console.log(`  findings: ${seen.size} identities; in k of ${runs} runs: ` +
  hist.map((c, k) => (k && c ? `${k}:${c}` : "")).filter(Boolean).join(" "));
const unstable = [...seen.values()].filter((n) => n < runs).map((n) => n / runs);
for (const n of [1, 2, 3, 5, 7, 10]) {
  if (n > runs) break;
  // the mean of n runs: 95% half-width by Student's t
  const t = { 1: NaN, 2: 12.71, 3: 4.30, 5: 2.78, 7: 2.45, 10: 2.26 }[n];
  const hw = n > 1 ? t * sd / Math.sqrt(n) : NaN;
  // a finding present in a share p of runs is seen by n runs with 1-(1-p)^n
  const miss = unstable.length ? mean(unstable.map((p) => (1 - p) ** n)) : 0;
  console.log(`  N=${String(n).padStart(2)}: ${(n * 2 * mean(secs)).toFixed(1)} s, share ` +
    `±${isNaN(hw) ? "n/a" : hw.toFixed(1)} points, an unstable finding missed ` +
    `${(100 * miss).toFixed(0)}% of the time, one in half the runs ${(100 * 0.5 ** n).toFixed(1)}%`);
}
