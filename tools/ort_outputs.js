// ort_outputs.js: fills in a reference folder's outputs with ONNX Runtime's: runs
// REF/model.onnx once (CPU, 1 thread) on the inputs meta.json lists, writes each output named in
// meta.json's output_names to REF/<name>.bin (raw little-endian) and its entry (name, fetch_col,
// shape, dtype, file) to meta.json's outputs. tools/standin_to_onnx.py writes the rest.
//
//   node tools/ort_outputs.js REF_DIR
//
// onnxruntime-node is found as tools/ort_node.js says (NODE_PATH or ORT_NODE).

'use strict';

const fs = require('fs');
const path = require('path');
const ort = require('./ort_node');

const ARRAYS = { float32: Float32Array, int32: Int32Array, int64: BigInt64Array };

async function main() {
  const ref = process.argv[2];
  if (!ref || process.argv.length > 3) {
    console.error('usage: node tools/ort_outputs.js REF_DIR');
    process.exit(2);
  }
  const metaPath = path.join(ref, 'meta.json');
  const meta = JSON.parse(fs.readFileSync(metaPath, 'utf8'));
  const feeds = {};
  for (const input of meta.inputs) {
    const buf = fs.readFileSync(path.join(ref, input.file));
    const Arr = ARRAYS[input.dtype];
    if (!Arr) throw new Error(`${metaPath}: input ${input.name} has dtype ${input.dtype}`);
    const data = new Arr(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
    feeds[input.name] = new ort.Tensor(input.dtype, data, input.shape);
  }
  const onnxPath = path.join(ref, meta.onnx_model || 'model.onnx');
  const session = await ort.InferenceSession.create(onnxPath, {
    intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', logSeverityLevel: 3,
  });
  const results = await session.run(feeds);
  meta.outputs = meta.output_names.map((name, col) => {
    const t = results[name];
    if (!t) throw new Error(`${metaPath}: ORT gave no output '${name}'`);
    const file = `${name}.bin`;
    fs.writeFileSync(path.join(ref, file), Buffer.from(t.data.buffer, t.data.byteOffset,
      t.data.byteLength));
    return { name, fetch_col: col, shape: t.dims.map(Number), dtype: t.type, file };
  });
  meta.ort_version = ort.env.versions.common;
  fs.writeFileSync(metaPath, JSON.stringify(meta, null, 1) + '\n');
  for (const o of meta.outputs) {
    console.log(`${ref}/${o.file} ${JSON.stringify(o.shape)} ${o.dtype}`);
  }
}

main().catch((e) => { console.error(`ort_outputs: ${e.message}`); process.exit(1); });
