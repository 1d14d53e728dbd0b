// sysprof-read.mjs FILE — a second reader of a (decompressed) sysprof
// stream, written apart from dumpanalyze's C one from the format in
// Tarantool's LuaJIT (src/lj_sysprof.h, src/lj_symtab.h), for sysprof.sh
// to check dumpanalyze's answers against.  It prints the samples by VM
// state ("state NAME N"), then each trace record in stream order
// ("record INITIAL NUMBER START SAMPLES": INITIAL 1 for the symbol table's,
// START the start location as LuaJIT's dump writes it), then the samples
// per Lua function on top of the stack in state LFUNC
// ("lfunc NAME:LINE N"), anywhere on the stack in states LFUNC and FFUNC
// ("through NAME:LINE N", once per sample), and as the innermost Lua
// function of a sample in state LFUNC or FFUNC ("leaf NAME:LINE N": for a
// fast function, its Lua caller).
import fs from "node:fs";

const buf = fs.readFileSync(process.argv[2]);
let pos = 0;
const byte = () => {
  if (pos >= buf.length) throw new Error(`cut at ${pos}`);
  return buf[pos++];
};
const uleb = () => {
  let v = 0n, shift = 0n, b;
  do {
    b = byte();
    v |= BigInt(b & 0x7f) << shift;
    shift += 7n;
  } while (b & 0x80);
  return v;
};
const str = () => {
  const n = Number(uleb());
  const s = buf.subarray(pos, pos + n).toString("latin1");
  pos += n;
  return s;
};
// lj_debug_pushloc's name of a chunk
function chunkName(chunk, addr, line) {
  if (line === 0xffffffffffffffffn) return "builtin:" + chunk;
  if (chunk[0] === "@") {
    let i = chunk.length - 1;
    while (i > 1 && chunk[i] !== "/" && chunk[i] !== "\\") i--;
    return i > 1 ? chunk.slice(i + 1) : chunk.slice(1);
  }
  if (chunk.length > 40) {
    const hex = addr.toString(16);
    const digits = addr >> 32n ? 8 + 2 + 2 * Math.floor((((addr >> 32n).toString(2).length) - 1) / 8) : 8;
    return "0x" + hex.padStart(digits, "0");
  }
  if (chunk[0] === "=") return chunk.slice(1);
  return `"${chunk}"`;
}

const protos = new Map(), newest = new Map(), records = [], lfunc = new Map(), through = new Map();
const leaf = new Map();
const state = new Array(10).fill(0);
const names = ["INTERP", "LFUNC", "FFUNC", "CFUNC", "GC", "EXIT", "RECORD", "OPT", "ASM", "TRACE"];
const addProto = () => {
  const addr = uleb(), chunk = str(), line = uleb();
  protos.set(addr, { name: chunkName(chunk, addr, line), line });
};
const addTrace = (initial) => {
  const no = uleb(), addr = uleb(), line = uleb();
  const p = protos.get(addr);
  newest.set(no, records.length);
  records.push({ initial, no, start: `${p ? p.name : "?"}:${line}`, samples: 0 });
};
const host = () => { while (uleb() !== 0n); };

if (buf.subarray(0, 3).toString() !== "ljs") throw new Error("no symbol table");
pos = 7;
for (;;) {
  const h = byte();
  if (h & 0x80) break;
  if ((h & 3) === 0) addProto();
  else if ((h & 3) === 1) { uleb(); str(); }
  else addTrace(1);
}
if (buf.subarray(pos, pos + 3).toString() !== "ljp") throw new Error("no ljp");
const version = buf[pos + 3];
pos += 7;
for (;;) {
  const h = byte();
  if (h & 0x80) break;
  if (h === 10 && version === 1) { uleb(); str(); continue; }
  if (h === 10) { addProto(); continue; }
  if (h === 11) { uleb(); str(); continue; }
  if (h === 12) { addTrace(0); continue; }
  state[h]++;
  if (h === 9) {
    const no = uleb();
    uleb(); uleb();
    if (newest.has(no)) records[newest.get(no)].samples++;
  } else if (h >= 1 && h <= 3) {
    let top = null, first = true, inner = null;
    const on = new Set();
    for (;;) {
      const f = byte();
      if (f & 0x80) break;
      const a = uleb();
      if (f === 1) {
        const line = uleb(), p = protos.get(a), name = `${p ? p.name : "?"}:${line}`;
        if (first && h === 1) top = name;
        if (!inner && h !== 3) inner = name;
        if (h !== 3) on.add(name);
      }
      first = false;
    }
    if (top) lfunc.set(top, (lfunc.get(top) || 0) + 1);
    if (inner) leaf.set(inner, (leaf.get(inner) || 0) + 1);
    for (const k of on) through.set(k, (through.get(k) || 0) + 1);
    host();
  } else {
    host();
  }
}
if (pos !== buf.length) throw new Error(`bytes after the epilogue at ${pos}`);
names.forEach((n, i) => console.log(`state ${n} ${state[i]}`));
for (const r of records) console.log(`record ${r.initial} ${r.no} ${r.start} ${r.samples}`);
for (const [k, v] of [...lfunc].sort()) console.log(`lfunc ${k} ${v}`);
for (const [k, v] of [...through].sort()) console.log(`through ${k} ${v}`);
for (const [k, v] of [...leaf].sort()) console.log(`leaf ${k} ${v}`);
