/**
 * The wire shape of a set of proto files: for every message its fields
 * (name, number, type, label, message or enum type), for every enum its
 * values, for every service its methods. Two sets of protos with the same
 * shape are wire-compatible in binary and in protobuf JSON. The fixture of
 * Peloton's shape (test/fixtures/peloton-wire.json) is made by
 * scripts/peloton-api/wire-fixture.ts; test/wire.test.ts compares ours to it.
 */

/** A FileDescriptorProto in protobuf JSON (what `buf build -o x.json` and `toJson` write). */
export interface FileDescriptorJson {
  name?: string;
  package?: string;
  messageType?: MessageDescriptorJson[];
  enumType?: EnumDescriptorJson[];
  service?: {
    name?: string;
    method?: {
      name?: string;
      inputType?: string;
      outputType?: string;
      serverStreaming?: boolean;
    }[];
  }[];
}

interface MessageDescriptorJson {
  name?: string;
  field?: {
    name?: string;
    number?: number;
    label?: string;
    type?: string;
    typeName?: string;
    oneofIndex?: number;
  }[];
  nestedType?: MessageDescriptorJson[];
  enumType?: EnumDescriptorJson[];
  oneofDecl?: { name?: string }[];
}

interface EnumDescriptorJson {
  name?: string;
  value?: { name?: string; number?: number }[];
}

/** `name=number type label [typeName] [oneof]`, one string per field: easy to diff in a failing test. */
export interface WireShape {
  messages: Record<string, string[]>;
  enums: Record<string, string[]>;
  services: Record<string, string[]>;
}

function addEnum(shape: WireShape, scope: string, e: EnumDescriptorJson): void {
  shape.enums[`${scope}.${e.name}`] = (e.value ?? []).map((v) => `${v.name}=${v.number ?? 0}`);
}

function addMessage(shape: WireShape, scope: string, m: MessageDescriptorJson): void {
  const full = `${scope}.${m.name}`;
  shape.messages[full] = (m.field ?? []).map((f) => {
    const oneof = f.oneofIndex === undefined ? "" : ` oneof:${m.oneofDecl?.[f.oneofIndex]?.name}`;
    return `${f.name}=${f.number} ${f.type} ${f.label}${f.typeName ? ` ${f.typeName}` : ""}${oneof}`;
  });
  for (const e of m.enumType ?? []) addEnum(shape, full, e);
  for (const n of m.nestedType ?? []) addMessage(shape, full, n);
}

/** The shape of `files`; with `keep`, only the messages and enums it accepts by full name (`.pkg.Name`). */
export function wireShape(
  files: readonly FileDescriptorJson[],
  keep: (fullName: string) => boolean = () => true,
): WireShape {
  const shape: WireShape = { messages: {}, enums: {}, services: {} };
  for (const file of files) {
    const scope = file.package ? `.${file.package}` : "";
    for (const e of file.enumType ?? []) addEnum(shape, scope, e);
    for (const m of file.messageType ?? []) addMessage(shape, scope, m);
    for (const s of file.service ?? []) {
      shape.services[`${scope}.${s.name}`] = (s.method ?? []).map(
        (m) => `${m.name}(${m.inputType}) ${m.serverStreaming ? "stream " : ""}${m.outputType}`,
      );
    }
  }
  for (const kind of ["messages", "enums"] as const) {
    for (const name of Object.keys(shape[kind])) if (!keep(name)) delete shape[kind][name];
  }
  return shape;
}

/** Every message and enum `roots` use, following fields (and nested types) transitively. */
export function typesReachedFrom(shape: WireShape, roots: Iterable<string>): Set<string> {
  const reached = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.pop() as string;
    if (reached.has(name)) continue;
    reached.add(name);
    // A nested type is declared inside its parent: the parent comes along whole.
    const parent = name.slice(0, name.lastIndexOf("."));
    if (shape.messages[parent]) queue.push(parent);
    for (const field of shape.messages[name] ?? []) {
      const typeName = field.split(" ")[3];
      if (typeName?.startsWith(".")) queue.push(typeName);
    }
    // A nested type belongs to its parent's declaration: keep the parent's whole body.
    for (const inner of Object.keys(shape.messages)) {
      if (inner.startsWith(`${name}.`)) queue.push(inner);
    }
    for (const inner of Object.keys(shape.enums))
      if (inner.startsWith(`${name}.`)) reached.add(inner);
  }
  return reached;
}
