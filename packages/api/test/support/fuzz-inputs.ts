/**
 * Bad inputs for the fuzz test, from a seed: valid inputs of each procedure
 * with one to three values replaced by what an attacker or a careless user
 * sends (huge and NUL-laden text, numbers past every range, long lists,
 * deep nesting, wrong types, unknown keys), and Peloton YAML files broken the
 * same ways plus YAML's own traps (aliases, anchors, nesting, duplicates).
 */

export type Random = () => number;
export const pick = <T>(r: Random, items: readonly T[]): T =>
  items[Math.floor(r() * items.length)]!;

const deep = (levels: number): unknown => {
  let v: unknown = "x";
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};
const manyKeys = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

/** Values that no field should accept as they are; `small` keeps them short (inputs in a URL). */
export function nastyValue(r: Random, small: boolean): unknown {
  const big = small ? [201, 1_001, 4_097] : [201, 4_097, 70_000, 300_000, 2_200_000];
  const makers: (() => unknown)[] = [
    () => "x".repeat(pick(r, big)),
    () => `a\u0000b`,
    () => "\u0000",
    () => "9".repeat(400),
    () => "../../../etc/passwd",
    () => "' OR 1=1; DROP TABLE jobs; --",
    () => "\ud800",
    () => "",
    () => "   ",
    () => 1e20,
    () => 2 ** 31,
    () => 2 ** 53 + 1,
    () => -1,
    () => -(2 ** 31) - 1,
    () => 1e308,
    () => 0.5,
    () => null,
    () => true,
    () => [],
    () => ({}),
    () => Array.from({ length: small ? 300 : pick(r, [300, 5_000, 50_000]) }, (_, i) => `g${i}`),
    () => deep(small ? 50 : pick(r, [50, 2_000])),
    () => manyKeys(small ? 200 : 5_000),
    () => JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}'),
  ];
  return pick(r, makers)();
}

type Path = (string | number)[];

function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) for (const [i, v] of value.entries()) paths(v, [...at, i], out);
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<
    string | number,
    unknown
  >;
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), value);
  return copy;
}

/** `base` with one to three values replaced (or an unknown key added) by nasty ones. */
export function mutateInput(r: Random, base: unknown, small: boolean): unknown {
  let input = base;
  const times = 1 + Math.floor(r() * 3);
  for (let i = 0; i < times; i++) {
    const all = paths(input);
    const at = pick(r, all);
    input =
      r() < 0.15 && at.length > 0
        ? setAt(input, [...at.slice(0, -1), `unknown${i}`], nastyValue(r, small))
        : setAt(input, at, nastyValue(r, small));
  }
  return input;
}

// ─── YAML ────────────────────────────────────────────────────────────────────

export const VALID_JOB_YAML = `name: fuzz
type: 0
owningteam: team
description: a job
instancecount: 3
labels:
  - {key: app, value: fuzz}
sla:
  priority: 5
  preemptible: true
defaultconfig:
  resource:
    cpulimit: 0.5
    memlimitmb: 64
  ports:
    - {name: http, envname: PORT}
  command:
    value: 'echo hi'
instanceconfig:
  1:
    name: second
`;

export const VALID_RESPOOL_YAML = `name: fuzzpool
owningteam: team
ldapgroups: [a, b]
description: a pool
resources:
  - kind: cpu
    reservation: 1
    limit: 2
    share: 1
policy: 1
`;

const YAML_TRAPS: ((r: Random) => string)[] = [
  () => "*nowhere",
  () => "&a [*a]",
  () => `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
  () => "{",
  () => "'unterminated",
  () => "!!binary AAAA",
  () => "!!js/function 'function(){}'",
  () => "1e20",
  () => "2147483648",
  () => "9007199254740993",
  () => "-1",
  () => ".nan",
  () => ".inf",
  () => "0x7FFFFFFFFFFFFFFF",
  () => '"\\0"',
  () => "~",
  (r) => "z".repeat(pick(r, [201, 5_000, 200_000])),
  () => "[1, 2, 3]",
  () => "{a: 1}",
  () => "<<: {x: 1}",
];

const BOMB = [
  "bomb_a: &a [x, x, x, x, x, x, x, x, x]",
  "bomb_b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
  "bomb_c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
  "bomb_d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
  "bomb_e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
].join("\n");

/** A broken copy of `valid`: a value replaced, a line duplicated or cut, an alias bomb, many overrides. */
export function mutateYaml(r: Random, valid: string): string {
  const lines = valid.trimEnd().split("\n");
  const i = Math.floor(r() * lines.length);
  switch (Math.floor(r() * 7)) {
    case 0:
    case 1: {
      const line = lines[i]!;
      const colon = line.indexOf(": ");
      const trap = pick(r, YAML_TRAPS)(r);
      lines[i] = colon >= 0 ? `${line.slice(0, colon + 2)}${trap}` : `${line} ${trap}`;
      return lines.join("\n");
    }
    case 2:
      lines.splice(i, 0, lines[i]!);
      return lines.join("\n");
    case 3:
      return valid.slice(0, Math.floor(r() * valid.length));
    case 4:
      return `${valid}${BOMB}\n`;
    case 5: {
      let extra = "instanceconfig:\n";
      for (let n = 0; n < pick(r, [10, 400, 3_000]); n++) extra += `  ${n}: {name: t}\n`;
      return valid.replace(/^instanceconfig:\n( {2}.*\n?)*/m, "") + extra;
    }
    default:
      return `${valid}${pick(r, ["unknownfield", "name", "x\u0000y", "'a'"])}: ${pick(r, YAML_TRAPS)(r)}\n`;
  }
}
