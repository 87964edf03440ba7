// NPY v1.0 files for the JS adapters (no numpy on Node), written and read here: header
// "\x93NUMPY" 1 0, a little-endian uint16 header length, a Python-literal dict padded with spaces
// and a newline so that the data start at a multiple of 64 bytes.
import { readFileSync, writeFileSync } from "node:fs";

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];

function shapeLiteral(shape) {
  if (shape.length === 0) return "()";
  if (shape.length === 1) return `(${shape[0]},)`;
  return `(${shape.join(", ")})`;
}

/** Write `bytes` (C order) as an .npy file with numpy dtype string `descr`. */
export function writeNpy(path, descr, shape, bytes) {
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeLiteral(shape)}, }`;
  let unpadded = MAGIC.length + 2 + 2 + dict.length + 1;
  let pad = (64 - (unpadded % 64)) % 64;
  let header = dict + " ".repeat(pad) + "\n";
  let out = new Uint8Array(MAGIC.length + 4 + header.length + bytes.byteLength);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  out[8] = header.length & 0xff;
  out[9] = header.length >> 8;
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), 10 + header.length);
  writeFileSync(path, out);
}

/** Read an .npy file: {descr, fortranOrder, shape, bytes (Uint8Array of the raw data)}. */
export function readNpy(path) {
  let buf = readFileSync(path);
  let bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC[i]) throw new Error(`${path}: not an .npy file`);
  }
  let major = bytes[6];
  let view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  let start = major === 1 ? 10 : 12;
  let header = new TextDecoder("latin1").decode(bytes.subarray(start, start + headerLength));
  let descr = /'descr':\s*'([^']+)'/.exec(header);
  let fortran = /'fortran_order':\s*(True|False)/.exec(header);
  let shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) throw new Error(`${path}: unsupported .npy header ${header}`);
  let dims = shape[1].split(",").map((s) => s.trim()).filter((s) => s.length).map(Number);
  // copy so that the data are aligned for any typed array view
  let data = bytes.slice(start + headerLength);
  return { descr: descr[1], fortranOrder: fortran[1] === "True", shape: dims, bytes: data };
}
