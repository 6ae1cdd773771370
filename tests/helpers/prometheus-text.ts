// A strict parser of Prometheus's text exposition format (0.0.4), for tests: every line must be
// a HELP, a TYPE or a sample of a family declared before it, or parsing throws. prom-client has
// no parser of its own.

export type Sample = { name: string; labels: Record<string, string>; value: number };
export type Family = { name: string; help: string; type: string; samples: Sample[] };

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const LABEL = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`;
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (\\S+)(?: (-?\\d+))?$`);
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const SUFFIXES: Record<string, string[]> = { histogram: ["_bucket", "_sum", "_count"], summary: ["", "_sum", "_count"] };

function parseValue(text: string, line: string): number {
  // Prometheus parses values with Go's ParseFloat, which takes NaN in any case; prom-client writes
  // "Nan" for a default gauge that has no sample yet (the event-loop lag right after start).
  if (/^nan$/i.test(text)) return Number.NaN;
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad sample value in: ${line}`);
  return Number(text);
}

function parseLabels(text: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (!text) return labels;
  for (const m of text.matchAll(new RegExp(LABEL, "g"))) {
    if (m[1]! in labels) throw new Error(`label ${m[1]} given twice`);
    labels[m[1]!] = m[2]!.replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
  }
  return labels;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const familyOf = (sampleName: string): Family | undefined => {
    for (const family of families.values()) {
      const suffixes = SUFFIXES[family.type] ?? [""];
      if (suffixes.some((s) => family.name + s === sampleName)) return family;
    }
    return undefined;
  };
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const help = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line);
    if (help) {
      if (families.has(help[1]!)) throw new Error(`HELP for ${help[1]} given twice`);
      families.set(help[1]!, { name: help[1]!, help: help[2]!, type: "untyped", samples: [] });
      continue;
    }
    const type = new RegExp(`^# TYPE (${NAME}) (\\w+)$`).exec(line);
    if (type) {
      const family = families.get(type[1]!);
      if (!family) throw new Error(`TYPE before HELP for ${type[1]}`);
      if (!TYPES.has(type[2]!)) throw new Error(`unknown type in: ${line}`);
      if (family.samples.length > 0) throw new Error(`TYPE after samples for ${type[1]}`);
      family.type = type[2]!;
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not a Prometheus text line: ${JSON.stringify(line)}`);
    const name = sample[1]!;
    const family = familyOf(name);
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    family.samples.push({ name, labels: parseLabels(sample[2]), value: parseValue(sample[sample.length - 2]!, line) });
  }
  return families;
}

/** The samples of one family whose labels include `labels`. */
export function samplesOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}, sampleName = name): Sample[] {
  const family = families.get(name);
  if (!family) throw new Error(`no metric family ${name}`);
  return family.samples.filter((s) => s.name === sampleName && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}
