// step.mjs GITHUB_WORKFLOW NAME — the `run` script of the workflow's step
// called NAME, as GitHub Actions reads the file (YAML, by js-yaml), for
// tests/cli/oncode.sh to run in a scratch repository.  Exits 1 when no
// step or several have that name.
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';

const [file, name] = process.argv.slice(2);
const wf = yaml.load(readFileSync(file, 'utf8'));
const runs = [];
for (const job of Object.values(wf.jobs || {}))
  for (const step of job.steps || [])
    if (step.name === name && typeof step.run === 'string') runs.push(step.run);
if (runs.length !== 1) {
  console.error(`step.mjs: ${runs.length} steps named '${name}' with a run script in ${file}`);
  process.exit(1);
}
process.stdout.write(runs[0]);
