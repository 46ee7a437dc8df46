/**
 * Results as JUnit XML (the Ant/Surefire schema CI systems read): one
 * testsuite per program, failures for failed expectations, errors for tests
 * that could not finish (timeout, crash, corrupted mailbox, no runner).
 */
import type { TestResult } from './runner.js';

export interface JunitSuite {
  name: string;
  machine: string;
  results: readonly TestResult[];
  timestamp: Date;
}

export function toJunit(suite: JunitSuite): string {
  const { results } = suite;
  const failures = results.filter((r) => r.status === 'failed').length;
  const errors = results.filter((r) => r.status === 'error').length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const time = seconds(results.reduce((t, r) => t + r.ms, 0));
  const counts = `tests="${results.length}" failures="${failures}" errors="${errors}" skipped="0" time="${time}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="retro-debug" ${counts}>`,
    `  <testsuite name="${attr(suite.name)}" ${counts} timestamp="${suite.timestamp.toISOString().slice(0, 19)}">`,
    '    <properties>',
    `      <property name="machine" value="${attr(suite.machine)}"/>`,
    '    </properties>',
  ];
  for (const r of results) lines.push(...testcase(r, seconds(r.ms)));
  lines.push('  </testsuite>', '</testsuites>');
  return lines.join('\n') + '\n';
}

function testcase(r: TestResult, time: string): string[] {
  const where = r.file ? ` classname="${attr(r.file.replace(/\.[^./\\]+$/, ''))}" file="${attr(r.file)}"` : '';
  const line = r.line ? ` line="${r.line}"` : '';
  const head = `    <testcase name="${attr(r.name)}"${where}${line} time="${time}">`;
  const out = [head];
  const place = r.failure ? `${r.failure.file}:${r.failure.line}: ` : '';
  if (r.status === 'failed')
    out.push(
      `      <failure message="${attr(r.message ?? '')}" type="expectation">${text(place + (r.message ?? ''))}</failure>`,
    );
  if (r.status === 'error') {
    const body = [r.message ?? '', ...(r.stack ?? []).map((f) => `  at ${f}`)].join('\n');
    out.push(`      <error message="${attr(r.message ?? '')}" type="${errorType(r.message)}">${text(body)}</error>`);
  }
  if (r.cycles !== undefined) {
    const budget = r.budget === undefined ? '' : ` (budget ${r.budget})`;
    out.push(`      <system-out>${text(`cycles: ${r.cycles}${budget}`)}</system-out>`);
  }
  out.push('    </testcase>');
  return out;
}

function errorType(message = ''): string {
  return /^(timeout|crash)/.exec(message)?.[1] ?? 'error';
}

/** XML 1.0 refuses most control characters even escaped: they become U+FFFD. */
function text(s: string): string {
  return Array.from(s, (ch) => (xmlChar(ch.codePointAt(0) as number) ? ch : '\ufffd'))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}

function xmlChar(c: number): boolean {
  return c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c !== 0xfffe && c !== 0xffff);
}
