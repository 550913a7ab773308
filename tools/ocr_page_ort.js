#!/usr/bin/env node
// ocr_page_ort.js: ONNX Runtime (onnxruntime-node, CPU) running PaddleOCR's
// det, cls and rec models on the inputs tools/ocr gave them while reading a
// page (tools/ocr --save_inputs=DIR), in the same order, timed per model as
// tools/ocr --repeats times its own:
//
//   node tools/ocr_page_ort.js DIR --det det.onnx --cls cls.onnx --rec rec.onnx
//        [--threads 1] [--repeats 5] [--warmup 1]
//
// DIR/inputs.json lists [{"model": "det"|"cls"|"rec", "file", "shape"}] (raw
// float32). Prints one JSON line with the median over the repeats of each
// model's time per page (det_ms, cls_ms, rec_ms) and of their sum
// (median_ms). onnxruntime-node is found as ../shared/bench/README.md
// explains (NODE_PATH or ORT_NODE).

'use strict';
const fs = require('fs');
const path = require('path');

const ort = require('./ort_node.js');

function usage(msg) {
  if (msg) console.error(msg);
  console.error('usage: node ocr_page_ort.js DIR --det M.onnx --cls M.onnx --rec M.onnx ' +
    '[--threads N] [--repeats R] [--warmup W]');
  process.exit(2);
}

function parseArgs(argv) {
  const a = { dir: null, det: null, cls: null, rec: null, threads: 1, repeats: 5, warmup: 1 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (['--det', '--cls', '--rec'].includes(k)) a[k.slice(2)] = argv[++i];
    else if (['--threads', '--repeats', '--warmup'].includes(k)) {
      a[k.slice(2)] = Number(argv[++i]);
      if (!Number.isInteger(a[k.slice(2)]) || a[k.slice(2)] < 0) usage('bad value for ' + k);
    } else if (k.startsWith('--')) usage('unknown option ' + k);
    else if (!a.dir) a.dir = k;
    else usage('unexpected argument ' + k);
  }
  if (!a.dir || !a.det || !a.rec) usage();
  if (a.repeats < 1) usage('--repeats must be >= 1');
  return a;
}

function median(v) {
  const s = [...v].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

(async () => {
  const a = parseArgs(process.argv.slice(2));
  const list = JSON.parse(fs.readFileSync(path.join(a.dir, 'inputs.json'), 'utf8'));
  const opts = {
    executionProviders: ['cpu'], intraOpNumThreads: a.threads, interOpNumThreads: 1,
    executionMode: 'sequential', graphOptimizationLevel: 'all',
  };
  const sessions = {};
  for (const m of ['det', 'cls', 'rec']) {
    if (a[m]) sessions[m] = await ort.InferenceSession.create(a[m], opts);
  }
  const runs = list.map((ent) => {
    const s = sessions[ent.model];
    if (!s) throw new Error(`${ent.file}: no --${ent.model} model given`);
    const buf = fs.readFileSync(path.join(a.dir, ent.file));
    const data = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    const n = ent.shape.reduce((x, y) => x * y, 1);
    if (data.length !== n) throw new Error(`${ent.file}: ${data.length} floats, shape needs ${n}`);
    return { model: ent.model, session: s,
             feeds: { [s.inputNames[0]]: new ort.Tensor('float32', data, ent.shape) } };
  });
  const per = { det: [], cls: [], rec: [], total: [] };
  for (let r = 0; r < a.warmup + a.repeats; r++) {
    const t = { det: 0, cls: 0, rec: 0 };
    for (const run of runs) {
      const t0 = process.hrtime.bigint();
      await run.session.run(run.feeds);
      t[run.model] += Number(process.hrtime.bigint() - t0) / 1e6;
    }
    if (r < a.warmup) continue;
    for (const m of ['det', 'cls', 'rec']) per[m].push(t[m]);
    per.total.push(t.det + t.cls + t.rec);
  }
  const r3 = (x) => Math.round(x * 1000) / 1000;
  const count = (m) => runs.filter((x) => x.model === m).length;
  console.log(JSON.stringify({
    det_ms: r3(median(per.det)), cls_ms: r3(median(per.cls)), rec_ms: r3(median(per.rec)),
    median_ms: r3(median(per.total)), det_runs: count('det'), cls_runs: count('cls'),
    rec_runs: count('rec'), repeats: a.repeats, threads: a.threads,
    ort_version: (ort.env && ort.env.versions && ort.env.versions.node) || null,
  }));
})().catch((e) => { console.error(e && e.stack ? e.stack : e); process.exit(1); });
