// Reads a /metrics answer the way a scraper would, strictly: every line is a HELP, a TYPE or a
// sample of the Prometheus text format 0.0.4 (label values unescaped, `le` buckets, _sum and
// _count), each sample belongs to the family its TYPE line opened, no series twice; anything else
// throws. parse-prometheus-text-format (the one npm parser of this format) reads the same text as
// a second, independent check of its families; it is not used for values because it drops the
// samples of histograms with labels besides `le` (its flattenMetrics keeps only unlabelled ones).
import parsePrometheus from 'parse-prometheus-text-format';

export type Labels = Record<string, string>;

export interface Sample {
  /** The sample's own name: the family's, or for a histogram `…_bucket`, `…_sum`, `…_count`. */
  name: string;
  labels: Labels;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

export interface Scrape {
  families: MetricFamily[];
  /** The value with exactly these labels (a histogram: its count); undefined when there is no such sample. */
  value(name: string, labels?: Labels): number | undefined;
  /** A histogram's cumulative count at bucket `le` (e.g. '+Inf'). */
  bucket(name: string, labels: Labels, le: string): number | undefined;
  /** A histogram's sum. */
  sum(name: string, labels?: Labels): number | undefined;
  /** The samples of a family (undefined when the family is not there at all). */
  samples(name: string): Sample[] | undefined;
  /** Sample lines: the number of series. */
  series: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SUFFIXES: Record<MetricFamily['type'], readonly string[]> = {
  counter: [''], gauge: [''], untyped: [''], histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'],
};

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a sample value: ${line}`);
  return Number(text);
}

/** `{a="1",b="x\"y"}` from position `at` (just past the `{`): the labels and the position after `}`. */
function parseLabels(line: string, at: number): [Labels, number] {
  const labels: Labels = {};
  let i = at;
  for (;;) {
    if (line[i] === '}') return [labels, i + 1];
    const eq = line.indexOf('=', i);
    const name = line.slice(i, eq);
    if (eq < 0 || !LABEL.test(name) || line[eq + 1] !== '"') throw new Error(`bad label at ${i}: ${line}`);
    let value = '';
    let j = eq + 2;
    for (; j < line.length && line[j] !== '"'; j++) {
      if (line[j] !== '\\') value += line[j];
      else {
        const next = line[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape in label ${name}: ${line}`);
      }
    }
    if (j >= line.length) throw new Error(`unterminated label ${name}: ${line}`);
    if (Object.hasOwn(labels, name)) throw new Error(`label ${name} twice: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') throw new Error(`expected , or } at ${i}: ${line}`);
  }
}

export function parseExposition(text: string): MetricFamily[] {
  const families: MetricFamily[] = [];
  const seen = new Set<string>();
  let current: MetricFamily | undefined;
  let help: { name: string; text: string } | undefined;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`bad metric name: ${line}`);
      if (kind === 'HELP') help = { name, text: rest.replaceAll('\\n', '\n').replaceAll('\\\\', '\\') };
      else {
        if (!(rest in SUFFIXES)) throw new Error(`unknown type: ${line}`);
        if (families.some((f) => f.name === name)) throw new Error(`family ${name} twice`);
        current = { name, help: help?.name === name ? help.text : '', type: rest as MetricFamily['type'], samples: [] };
        families.push(current);
      }
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{?)/.exec(line);
    if (!m) throw new Error(`not a sample: ${line}`);
    const name = m[1]!;
    let [labels, rest]: [Labels, number] = [{}, name.length];
    if (m[2]) [labels, rest] = parseLabels(line, name.length + 1);
    const fields = line.slice(rest).trim().split(/ +/);
    if (line[rest] !== ' ' || fields.length < 1 || fields.length > 2) throw new Error(`bad sample: ${line}`);
    const value = parseValue(fields[0]!, line);
    if (!current || !SUFFIXES[current.type].some((s) => `${current!.name}${s}` === name)) throw new Error(`sample outside its family: ${line}`);
    if (current.type === 'histogram' && name.endsWith('_bucket') && labels.le === undefined) throw new Error(`bucket without le: ${line}`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`series twice: ${line}`);
    seen.add(key);
    current.samples.push({ name, labels, value });
  }
  return families;
}

const same = (a: Labels, b: Labels) => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

export function scrape(text: string): Scrape {
  const families = parseExposition(text);
  // The independent parser finds the same families, of the same types.
  const other = parsePrometheus(text).map((f) => `${f.name} ${f.type.toLowerCase()}`).sort();
  const ours = families.map((f) => `${f.name} ${f.type}`).sort();
  if (JSON.stringify(other) !== JSON.stringify(ours)) throw new Error(`parse-prometheus-text-format reads other families: ${other.join(', ')}`);
  const family = (name: string) => families.find((f) => f.name === name);
  const find = (name: string, sampleName: string, labels: Labels) => family(name)?.samples.find((s) => s.name === sampleName && same(s.labels, labels))?.value;
  return {
    families,
    samples: (name) => family(name)?.samples,
    value(name, labels = {}) {
      const f = family(name);
      return find(name, f?.type === 'histogram' ? `${name}_count` : name, labels);
    },
    bucket: (name, labels, le) => find(name, `${name}_bucket`, { ...labels, le }),
    sum: (name, labels = {}) => find(name, `${name}_sum`, labels),
    series: families.reduce((n, f) => n + f.samples.length, 0),
  };
}
