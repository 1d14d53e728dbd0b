// ciconfig.mjs GITHUB_WORKFLOW GITLAB_CI — samples/ci/'s files read as
// the CI systems read them (YAML, by js-yaml), and what they ask of
// dumpanalyze: prints every dumpanalyze command line of their scripts,
// one per line as "dumpanalyze ARG ARG ..." (continuations joined), for
// tests/cli/oncode.sh to check against the tool's options and views;
// checks that each file uploads what a run it makes writes.  Exits 1
// after listing what is wrong.
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';

const [ghFile, glFile] = process.argv.slice(2);
const problems = [];
const commands = [];

// The dumpanalyze commands of a script: lines joined at '\', split at
// ';', '&&', '||', '|', '(' and ')', each command's words.
function scan(script, where) {
  const text = script.replace(/\\\n/g, ' ');
  for (const line of text.split('\n'))
    for (const part of line.split(/;|&&|\|\||\||\(|\)/)) {
      const words = part.trim().split(/\s+/).filter((w) => w && !w.startsWith('>'));
      const k = words.indexOf('dumpanalyze');
      if (k === 0) commands.push({ where, words });
    }
}

const gh = yaml.load(readFileSync(ghFile, 'utf8'));
if (!gh.on || !gh.jobs) problems.push(`${ghFile}: no 'on' or 'jobs'`);
let uploaded = null, sarifWritten = [];
for (const [name, job] of Object.entries(gh.jobs || {})) {
  if (!job['runs-on'] || !Array.isArray(job.steps)) problems.push(`${ghFile}: job ${name} lacks runs-on or steps`);
  for (const step of job.steps || []) {
    if (step.run) scan(step.run, `${ghFile} ${name}`);
    if (typeof step.uses === 'string' && step.uses.startsWith('github/codeql-action/upload-sarif@'))
      uploaded = step.with && step.with.sarif_file;
  }
}
if (!gh.permissions || gh.permissions['security-events'] !== 'write')
  problems.push(`${ghFile}: upload-sarif needs permissions: security-events: write`);
for (const c of commands) {
  const v = c.words.indexOf('--views'), o = c.words.indexOf('--out-dir');
  if (v > 0 && o > 0 && c.words[v + 1].split(',').includes('sarif'))
    sarifWritten.push(`${c.words[o + 1]}/findings.sarif`);
}
if (!uploaded || !sarifWritten.includes(uploaded))
  problems.push(`${ghFile}: uploads ${uploaded}, the runs write ${sarifWritten.join(', ') || 'no SARIF'}`);
if (!commands.some((c) => c.words.includes('--annotate') && c.words.includes('--compare')))
  problems.push(`${ghFile}: no --compare with --annotate`);
const ghCount = commands.length;

const gl = yaml.load(readFileSync(glFile, 'utf8'));
let scripts = '';
const reports = [];
for (const [name, job] of Object.entries(gl)) {
  if (typeof job !== 'object' || !job.script) continue;
  for (const key of ['before_script', 'script'])
    for (const s of job[key] || []) {
      scan(s, `${glFile} ${name}`);
      scripts += `${s}\n`;
    }
  const cq = job.artifacts && job.artifacts.reports && job.artifacts.reports.codequality;
  if (cq) reports.push(...[].concat(cq));
}
// the report GitLab reads is the one a run with the codequality view wrote
const cqDirs = commands.slice(ghCount).filter((c) =>
  (c.words[c.words.indexOf('--views') + 1] || '').split(',').includes('codequality'))
  .map((c) => c.words[c.words.indexOf('--out-dir') + 1]);
if (!cqDirs.length) problems.push(`${glFile}: no run with --views ...codequality`);
if (!reports.length) problems.push(`${glFile}: no artifacts: reports: codequality:`);
for (const r of reports)
  if (!cqDirs.some((d) => scripts.includes(`cp ${d}/gl-code-quality-report.json ${r === 'gl-code-quality-report.json' ? '.' : r}`)))
    problems.push(`${glFile}: reports ${r}, which no run's gl-code-quality-report.json is copied to`);

for (const c of commands) console.log(c.words.join(' '));
for (const p of problems) console.error(`  ${p}`);
console.error(`ciconfig: ${commands.length} dumpanalyze commands (${ghCount} in ${ghFile})`);
process.exit(problems.length ? 1 : 0);
