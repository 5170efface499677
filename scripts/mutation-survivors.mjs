#!/usr/bin/env node
// node scripts/mutation-survivors.mjs [report.json] [path-filter]: the mutants no test killed, one per line, as
// `file:line:col  Mutator  status  original → replacement`, to read beside the source while writing tests.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [reportPath = 'reports/mutation/all/mutation.json', filter = ''] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const oneLine = (text) => (text.length > 70 ? `${text.slice(0, 67)}...` : text).replace(/\s+/g, ' ');
for (const [path, file] of Object.entries(report.files)) {
  const name = relative(process.cwd(), path);
  if (!name.includes(filter)) continue;
  const lines = file.source.split('\n');
  for (const m of file.mutants) {
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
    const { start, end } = m.location;
    const original =
      start.line === end.line
        ? lines[start.line - 1].slice(start.column - 1, end.column - 1)
        : `${lines[start.line - 1].slice(start.column - 1)}…`;
    console.log(
      `${name}:${start.line}:${start.column}  ${m.mutatorName}  ${m.status}  ${oneLine(original)} → ${oneLine(m.replacement ?? '')}`,
    );
  }
}
