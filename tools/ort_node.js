// ort_node.js: loads onnxruntime-node for the ORT scripts beside it
// (ocr_page_ort.js, ort_profile.js), found as ../shared/bench/README.md
// explains (NODE_PATH or ORT_NODE), or exits with the install hint.

'use strict';

try {
  module.exports = require(process.env.ORT_NODE || 'onnxruntime-node');
} catch (e) {
  console.error('cannot load onnxruntime-node (npm install --ignore-scripts onnxruntime-node@1.30.0; ' +
    'NODE_PATH=<folder>/node_modules)');
  process.exit(2);
}
