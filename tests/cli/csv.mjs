// csv.mjs — a CSV file as dumpanalyze writes it (RFC 4180 as csvout.c
// writes it: CRLF rows, quotes doubled) read into objects by the header's
// names, for the tests that compare the report with the CSV views.
import fs from "node:fs";

export function csv(file) {
  const text = fs.readFileSync(file, "utf8"), rows = [];
  let row = [], field = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\r") { /* CRLF */ }
    else if (c === "\n") { row.push(field); rows.push(row); row = []; field = ""; }
    else field += c;
  }
  const head = rows.shift();
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}
