// annotations.mjs ANNOTATIONS [SARIF] — `--annotate github` lines read as
// GitHub's runner reads workflow commands, against the run's
// findings.sarif (the same findings, in the same order: a line without
// file= is one of the findings SARIF leaves out, findingsLeftOut, as it
// has no file to place it on); without SARIF
// (a comparison's), each line's command, file, lines and title decoded,
// one per line, for the caller to check.
//
// The syntax and escaping checked are GitHub's: "::COMMAND
// key=value,key=value::MESSAGE" (docs: "Workflow commands for GitHub
// Actions", "Setting a warning message"), escaped as the toolkit escapes
// (actions/toolkit packages/core/src/command.ts: escapeData turns '%',
// CR, LF into %25, %0D, %0A; escapeProperty also ':' and ',' into %3A,
// %2C), which is what the runner undoes.  Prints "annotations: checked
// N lines" and exits 1 after listing what is wrong.
import { readFileSync } from 'node:fs';

const [annFile, sarifFile] = process.argv.slice(2);
const text = readFileSync(annFile, 'utf8');
const run = sarifFile ? JSON.parse(readFileSync(sarifFile, 'utf8')).runs[0] : null;
// a baselined finding (a suppressed result) has no annotation
const results = run ? run.results.filter((r) => !r.suppressions) : null;
const problems = [];
const bad = (i, what) => problems.push(`line ${i + 1}: ${what}`);

if (!text.endsWith('\n')) problems.push('the last line has no newline');
const lines = text.split('\n').slice(0, -1);
const placed = lines.filter((l) => /^::[a-z]+ (?:[^:]*,)?file=/.test(l)).length;
if (results && placed !== results.length)
  problems.push(`${placed} lines with a file for ${results.length} results`);
if (run && lines.length - placed > run.properties.findingsLeftOut)
  problems.push(`${lines.length - placed} lines without a file, ${run.properties.findingsLeftOut} findings left out`);
let next = 0;

const KEYS = ['file', 'line', 'endLine', 'title'];
const unescapeProperty = (s) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n')
  .replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
const unescapeData = (s) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

const decoded = [];
lines.forEach((line, i) => {
  const r = results && /^::[a-z]+ (?:[^:]*,)?file=/.test(line) ? results[next++] : null;
  if (/\r/.test(line)) bad(i, 'a raw carriage return');
  const m = /^::(notice|warning|error) ([^:]*)::(.*)$/.exec(line);
  if (!m) return bad(i, `not a workflow command: ${JSON.stringify(line.slice(0, 80))}`);
  const [, level, props, data] = m;
  const want = r && (r.level === 'note' ? 'notice' : 'warning');
  if (r && level !== want) bad(i, `${level} for a result of level ${r.level}`);
  // every '%' starts an escape the runner undoes
  if (/%(?!25|0D|0A|3A|2C)/.test(props)) bad(i, `a bare '%' in the properties: ${props}`);
  if (/%(?!25|0D|0A)/.test(data)) bad(i, `a bare '%' in the message`);
  const p = {};
  for (const kv of props.split(',')) {
    const eq = kv.indexOf('=');
    const key = kv.slice(0, eq);
    if (eq < 1 || !KEYS.includes(key)) return bad(i, `a property that is not key=value: ${kv}`);
    if (key in p) return bad(i, `${key} twice`);
    p[key] = unescapeProperty(kv.slice(eq + 1));
  }
  if (!p.title) bad(i, 'no title');
  decoded.push(`${level} ${p.file ? `${p.file}:${p.line}${p.endLine ? `-${p.endLine}` : ''}` : '-'} ${p.title}`);
  if (!r) return;
  if (!p.title.startsWith(`${r.ruleId} `)) bad(i, `title ${p.title} for ${r.ruleId}`);
  const phys = r.locations[0].physicalLocation;
  if (phys) {
    const uri = decodeURIComponent(phys.artifactLocation.uri);
    if (phys.artifactLocation.uriBaseId !== '%SRCROOT%') bad(i, 'a file outside the current directory');
    if (p.file !== uri) bad(i, `file ${JSON.stringify(p.file)}, SARIF ${JSON.stringify(uri)}`);
    if (Number(p.line) !== phys.region.startLine || !/^[1-9][0-9]*$/.test(p.line))
      bad(i, `line ${p.line}, SARIF ${phys.region.startLine}`);
    const end = phys.region.endLine;
    if (end === undefined ? 'endLine' in p : Number(p.endLine) !== end)
      bad(i, `endLine ${p.endLine}, SARIF ${end}`);
  } else if ('file' in p || 'line' in p || 'endLine' in p) {
    bad(i, 'a place for a finding SARIF does not place on a file');
  }
  const msg = unescapeData(data);
  if (msg !== r.message.text && `${msg}.` !== r.message.text)
    bad(i, `message ${JSON.stringify(msg)}, SARIF ${JSON.stringify(r.message.text)}`);
});

if (!results) for (const d of decoded) console.log(d);
for (const p of problems) console.log(`  ${p}`);
console.log(`annotations: checked ${lines.length} lines`);
process.exit(problems.length ? 1 : 0);
