#!/usr/bin/env node
// ort_profile.js: where ONNX Runtime (onnxruntime-node, CPU) spends its time
// on a reference folder's model.onnx, per op type, to hold against the
// engine's `benchmark --profile` of the same model:
//
//   node tools/ort_profile.js REF_DIR [--threads 1] [--runs 20] [--warmup 3]
//
// Runs the model with ORT's own profiler on (the settings of
// ../shared/bench/ort_latency.js: sequential, graph optimisation "all"),
// drops the warm-up runs and prints ms per timed run of each op type (ORT's
// node kernel times, after its fusions: FusedConv, FusedMatMul, the NCHWc
// Reorder* nodes), sorted by time, then one JSON line with the same numbers
// and the median run. The profiler adds a fixed cost per node, so the run
// times here are above ort_latency.js's: compare op types, not totals.
// onnxruntime-node is found as ../shared/bench/README.md explains (NODE_PATH
// or ORT_NODE).

'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const ort = require('./ort_node.js');

function usage(msg) {
  if (msg) console.error(msg);
  console.error('usage: node ort_profile.js REF_DIR [--threads N] [--runs R] [--warmup W]');
  process.exit(2);
}

function parseArgs(argv) {
  const a = { dir: null, threads: 1, runs: 20, warmup: 3 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (['--threads', '--runs', '--warmup'].includes(k)) {
      a[k.slice(2)] = Number(argv[++i]);
      if (!Number.isInteger(a[k.slice(2)]) || a[k.slice(2)] < 0) usage('bad value for ' + k);
    } else if (k.startsWith('--')) usage('unknown option ' + k);
    else if (!a.dir) a.dir = k;
    else usage('unexpected argument ' + k);
  }
  if (!a.dir) usage();
  if (a.runs < 1) usage('--runs must be >= 1');
  return a;
}

(async () => {
  const a = parseArgs(process.argv.slice(2));
  const meta = JSON.parse(fs.readFileSync(path.join(a.dir, 'meta.json'), 'utf8'));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ort_profile_'));
  const session = await ort.InferenceSession.create(path.join(a.dir, 'model.onnx'), {
    executionProviders: ['cpu'], intraOpNumThreads: a.threads, interOpNumThreads: 1,
    executionMode: 'sequential', graphOptimizationLevel: 'all',
    enableProfiling: true, profileFilePrefix: path.join(tmp, 'ort'),
  });
  const feeds = {};
  for (const ent of meta.inputs) {
    if (!session.inputNames.includes(ent.name)) continue;
    if (ent.dtype !== 'float32') throw new Error(`${ent.name}: only float32 inputs (${ent.dtype})`);
    const buf = fs.readFileSync(path.join(a.dir, ent.file));
    const data = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    feeds[ent.name] = new ort.Tensor('float32', data, ent.shape);
  }
  for (let i = 0; i < a.warmup + a.runs; i++) await session.run(feeds);
  session.endProfiling();
  const file = fs.readdirSync(tmp).find((f) => f.endsWith('.json'));
  if (!file) throw new Error(`ORT wrote no profile into ${tmp}`);
  const events = JSON.parse(fs.readFileSync(path.join(tmp, file), 'utf8'));
  fs.rmSync(tmp, { recursive: true });

  // Each session.run is one "model_run" event; node kernel times after the
  // last warm-up run's start are the timed runs' ("..._kernel_time").
  const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run')
    .sort((x, y) => x.ts - y.ts);
  if (runs.length !== a.warmup + a.runs) throw new Error(`${runs.length} runs in the profile`);
  const timed = runs.slice(a.warmup);
  const from = timed[0].ts;
  const ms = {}; const nodes = {};
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || e.ts < from) continue;
    const op = e.args.op_name;
    ms[op] = (ms[op] || 0) + e.dur / 1e3 / a.runs;
    nodes[op] = (nodes[op] || 0) + 1 / a.runs;
  }
  const total = Object.values(ms).reduce((x, y) => x + y, 0);
  const d = timed.map((e) => e.dur / 1e3).sort((x, y) => x - y);
  const median = d.length % 2 ? d[d.length >> 1] : (d[d.length / 2 - 1] + d[d.length / 2]) / 2;
  console.log('op type                nodes     ms/run   share');
  for (const [op, t] of Object.entries(ms).sort((x, y) => y[1] - x[1])) {
    console.log(`${op.padEnd(22)} ${String(Math.round(nodes[op])).padStart(5)} ` +
      `${t.toFixed(3).padStart(10)} ${(100 * t / total).toFixed(1).padStart(6)}%`);
  }
  console.log(`${'total'.padEnd(28)} ${total.toFixed(3).padStart(10)}`);
  const r3 = (x) => Math.round(x * 1000) / 1000;
  console.log(JSON.stringify({
    median_ms: r3(median), kernels_ms: r3(total), threads: a.threads, runs: a.runs,
    ops_ms: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, r3(v)])),
  }));
})().catch((e) => { console.error(e && e.stack ? e.stack : e); process.exit(1); });
