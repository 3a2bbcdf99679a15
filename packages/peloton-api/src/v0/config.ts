/**
 * Peloton's configs (job, resource pool) between their protobuf form and
 * ours. A config a client sends becomes the YAML our CLI would submit
 * (protobuf JSON uses Peloton's camelCase names, which our YAML decoder
 * reads as the same keys), so the router decodes and checks it with the
 * same code and stores the same config as `peloton job create`. A stored
 * config goes back through protobuf JSON into Peloton's message.
 */
import {
  type DescField,
  type DescMessage,
  fromJson,
  type MessageShape,
  toJson,
} from "@bufbuild/protobuf";
import { stringify } from "yaml";

/** Fields a client may send that this scheduler sets itself: dropped from what it submits. */
const SERVER_SET = ["changeLog"];

/** `message` as the YAML text of Peloton's config file. */
export function configYaml<D extends DescMessage>(schema: D, message: MessageShape<D>): string {
  const json = toJson(schema, message) as Record<string, unknown>;
  for (const key of SERVER_SET) delete json[key];
  return stringify(json);
}

/**
 * Our stored config (camelCase keys, enum names) as Peloton's message. Our
 * keys whose case differs from Peloton's field (`respoolId`, Peloton's
 * `respoolID`) are renamed; what Peloton's message has no field for (our
 * STATEFUL job type, say) is left out rather than refused, so a reader of
 * any job gets an answer.
 */
export function pelotonMessage<D extends DescMessage>(schema: D, ours: unknown): MessageShape<D> {
  return fromJson(schema, renameKeys(ours, schema) as never, { ignoreUnknownFields: true });
}

/** Each message's fields by their JSON and proto names in lower case, built once per message. */
const fieldsByKey = new WeakMap<DescMessage, Map<string, DescField>>();

function fieldNamed(schema: DescMessage, key: string): DescField | undefined {
  let byKey = fieldsByKey.get(schema);
  if (!byKey) {
    byKey = new Map();
    // The first field a key names wins, as a search in field order would find it.
    for (const f of schema.fields)
      for (const k of [f.jsonName.toLowerCase(), f.name.toLowerCase()])
        if (!byKey.has(k)) byKey.set(k, f);
    fieldsByKey.set(schema, byKey);
  }
  return byKey.get(key.toLowerCase());
}

function renameKeys(value: unknown, schema: DescMessage | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, schema));
  if (value === null || typeof value !== "object" || !schema) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = fieldNamed(schema, key);
    if (!field) {
      out[key] = v;
      continue;
    }
    const inner =
      field.fieldKind === "message"
        ? field.message
        : field.fieldKind === "list" && field.listKind === "message"
          ? field.message
          : field.fieldKind === "map" && field.mapKind === "message"
            ? field.message
            : undefined;
    if (field.fieldKind === "map" && v && typeof v === "object") {
      out[field.jsonName] = Object.fromEntries(
        Object.entries(v).map(([k, entry]) => [k, renameKeys(entry, inner)]),
      );
    } else {
      out[field.jsonName] = renameKeys(v, inner);
    }
  }
  return out;
}

/** A time as Peloton's string fields carry it (RFC 3339), or "" for none. */
export function timeText(at: Date | null | undefined): string {
  return at ? at.toISOString() : "";
}
