// The harness's NDJSON protocol (adapters/README.md), shared by every JS adapter: read one request
// line from stdin, call the adapter's handler for its op, write one response line to stdout. An
// adapter gives only its handlers:
//
//   import { serve, Unsupported } from "./protocol.mjs";
//   await serve({ describe, read, write, list }, { name: "my-impl" });
//
// A handler receives (request, rawLine) and returns the response's members; the loop adds `id`,
// `ok`, `elapsed` (and `protocol` for describe). A throw becomes {"ok": false, "error": {type,
// message, reason, origin}}, flagged `unsupported: true` for the adapter's own Unsupported, whose
// every message adapter.toml [[errors]] must declare. The harness copies this file next to the
// adapter's own files before it starts the command (conformance/harness/envs.py
// stage_command_folder), so "./protocol.mjs" resolves from the adapter's folder as staged.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

export const PROTOCOL = 1;

// The adapter's own refusal of a request it cannot drive the implementation for.
export class Unsupported extends Error {
  name = "Unsupported";
}

// A request the loop cannot serve at all (unreadable, unknown op): always `errored`.
export class ProtocolError extends Error {
  name = "ProtocolError";
}

// An npm package's version as installed for the adapter ($NODE_PATH, or ./node_modules).
export function packageVersion(name) {
  for (let root of [process.env.NODE_PATH, join(process.cwd(), "node_modules")].filter(Boolean)) {
    try {
      return JSON.parse(readFileSync(join(root, name, "package.json"), "utf8")).version;
    } catch {
      // try the next root
    }
  }
  return "unknown";
}

// The staged folder: this file, the adapter's files and the other shared modules; the
// implementation lives below it, in node_modules.
const STAGED = dirname(fileURLToPath(import.meta.url));

// The innermost stack frame that is a file (frames of V8 builtins such as JSON.parse and of
// node: internals are skipped, like Python's innermost traceback frame never being C code).
function innermostFile(stack) {
  for (let line of String(stack ?? "").split("\n")) {
    if (!/^\s+at /.test(line)) continue;
    let m = /\(?((?:file:\/\/)?\/[^()]*?):\d+(?::\d+)?\)?\s*$/.exec(line);
    if (!m) continue;
    return m[1].startsWith("file://") ? fileURLToPath(m[1]) : m[1];
  }
  return null;
}

// origin "adapter" when the error was thrown by a file of the staged folder itself (the adapter's
// code or a shared module): a bug of the adapter, `errored` whatever adapter.toml says.
function originOf(err) {
  let file = innermostFile(err?.stack);
  return file && dirname(file) === STAGED ? "adapter" : "implementation";
}

export function defaultTypeOf(err) {
  if (err === null || err === undefined) return String(err);
  return err.name || err.constructor?.name || typeof err;
}

// type, message with the chain of causes (a library that wraps a failure, as zarrita's
// CodecPipelineError does, keeps the cause's type and message visible to [[errors]] rules).
function errorOf(err, typeOf) {
  let message = String(err?.message ?? err);
  for (let cause = err?.cause, depth = 0; cause !== undefined && cause !== null && depth < 5; cause = cause.cause, depth++) {
    message += ` (cause: ${typeOf(cause)}: ${cause?.message ?? cause})`;
  }
  return { type: typeOf(err), message, reason: null, origin: originOf(err) };
}

async function handle(handlers, req, rawLine, typeOf) {
  let started = process.hrtime.bigint();
  let elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
  if (req.op === "shutdown") return { id: req.id, ok: true, elapsed: elapsed() };
  let handler = Object.hasOwn(handlers, req.op) ? handlers[req.op] : undefined;
  let response;
  if (!handler) {
    response = { ok: false, error: errorOf(new ProtocolError(`unknown or unimplemented op ${req.op}`), typeOf) };
  } else {
    try {
      response = { ok: true, ...(await handler(req, rawLine)) };
      if (req.op === "describe") response.protocol = PROTOCOL;
    } catch (err) {
      // only the adapter's own Unsupported answers are flagged (each is declared in adapter.toml)
      response = { ok: false, ...(err instanceof Unsupported ? { unsupported: true } : {}), error: errorOf(err, typeOf) };
    }
  }
  return { ...response, id: req.id, elapsed: elapsed() };
}

/**
 * Serve requests until shutdown or the end of stdin, one at a time, in order.
 * handlers: {op: async (request, rawLine) => response members}.
 * options.name: the adapter's name (stderr messages); options.typeOf(err): the error's type name
 * (default: err.name, else its constructor's name).
 */
export async function serve(handlers, { name = "adapter", typeOf = defaultTypeOf } = {}) {
  // stdout carries the protocol alone: whatever the implementation prints goes to stderr. A
  // promise it leaves rejected after a request has been answered must not end the process.
  console.log = console.error;
  process.on("unhandledRejection", (err) => console.error(`${name}: unhandled rejection:`, err));
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let req;
    try {
      req = JSON.parse(line);
    } catch (err) {
      let error = errorOf(new ProtocolError(`unreadable request: ${err.message}`), typeOf);
      process.stdout.write(JSON.stringify({ id: -1, ok: false, error, elapsed: 0 }) + "\n");
      continue;
    }
    process.stdout.write(JSON.stringify(await handle(handlers, req, line, typeOf)) + "\n");
    if (req.op === "shutdown") break;
  }
}
