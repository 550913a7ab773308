#!/usr/bin/python3
"""standin_to_onnx.py: the ONNX twin of a stand-in model (tools/standin_models.h), so ONNX
Runtime runs the same network with the same weights, plus a reference folder for it.

  tools/standin_to_onnx.py MODEL_DIR [--shape=1,3,256,256] [--seed=1] [--high=1]

reads MODEL_DIR/__model__ (a Paddle ProgramDesc, parsed with lite/model_parser/framework.proto
compiled by the system protoc) and MODEL_DIR/__params__ (the combined params file: one tensor
record per persistable var, sorted by name), and writes MODEL_DIR/reference/: model.onnx
(opset 13, spatial dims symbolic), x.bin (uniform [0, --high) of --shape, numpy seed --seed) and a
meta.json in the shared models' format whose outputs tools/ort_outputs.js fills in by running
ONNX Runtime. Only the op types the stand-ins use are converted; any other op type (the face
detector's prior_box / box_coder / multiclass_nms3 among them: use face_detector_heads) stops
the conversion with an error naming the op. Needs Debian's python3-onnx (tools/setup.sh
--bench) and protoc.
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

try:
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError:
    sys.exit("standin_to_onnx: needs python3-onnx "
             "(apt-get install python3-onnx, or tools/setup.sh --bench)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PADDLE_DTYPES = {5: np.float32, 2: np.int32, 3: np.int64, 6: np.float64, 0: np.bool_, 20: np.uint8}
ONNX_DTYPES = {5: TensorProto.FLOAT, 2: TensorProto.INT32, 3: TensorProto.INT64}


class ConvertError(Exception):
    pass


def framework_pb2():
    """framework.proto compiled for Python by the system protoc into a temporary folder."""
    out = tempfile.mkdtemp(prefix="framework_pb2_")
    proto_dir = os.path.join(ROOT, "lite", "model_parser")
    subprocess.run(["protoc", "--proto_path=" + proto_dir, "--python_out=" + out,
                    os.path.join(proto_dir, "framework.proto")], check=True)
    sys.path.insert(0, out)
    import framework_pb2 as pb  # pylint: disable=import-outside-toplevel
    return pb


def read_params(pb, block, path):
    """The combined params file as {name: ndarray}, in the order ListParamVars gives."""
    names = sorted({v.name for v in block.vars if v.persistable and
                    v.type.type not in (pb.VarType.FEED_MINIBATCH, pb.VarType.FETCH_LIST,
                                        pb.VarType.READER)})
    data = open(path, "rb").read()
    pos, params = 0, {}
    for name in names:
        pos += 4  # lod version
        (levels,) = struct.unpack_from("<Q", data, pos)
        pos += 8
        for _ in range(levels):
            (nbytes,) = struct.unpack_from("<Q", data, pos)
            pos += 8 + nbytes
        pos += 4  # tensor version
        (desc_size,) = struct.unpack_from("<i", data, pos)
        pos += 4
        desc = pb.VarType.TensorDesc()
        desc.ParseFromString(data[pos:pos + desc_size])
        pos += desc_size
        dtype = PADDLE_DTYPES.get(desc.data_type)
        if dtype is None:
            raise ConvertError(f"{path}: param '{name}' has Paddle dtype {desc.data_type}")
        count = int(np.prod(desc.dims)) if desc.dims else 1
        arr = np.frombuffer(data, dtype=dtype, count=count, offset=pos).reshape(list(desc.dims))
        pos += arr.nbytes
        params[name] = arr.copy()
    if pos != len(data):
        raise ConvertError(f"{path}: {len(data) - pos} bytes left after {len(names)} params")
    return params


def attr_value(a):
    """The value of a Paddle OpDesc attribute (ints, floats, strings, bools, lists)."""
    for field in ("ints", "floats", "strings", "bools", "longs", "float64s"):
        if len(getattr(a, field)):
            return list(getattr(a, field))
    for field in ("i", "f", "s", "b", "l", "float64"):
        if a.HasField(field):
            return getattr(a, field)
    return []


class Converter:
    """Appends ONNX nodes for the Paddle ops of block 0, one op at a time."""

    def __init__(self, block, params):
        self.vars = {v.name: v for v in block.vars}
        self.params = params
        self.nodes, self.inits, self.count = [], [], 0

    def rank(self, name):
        return len(self.vars[name].type.lod_tensor.tensor.dims)

    def const(self, values, dtype=np.int64):
        self.count += 1
        name = f"const{self.count}"
        self.inits.append(numpy_helper.from_array(np.asarray(values, dtype=dtype), name))
        return name

    def tmp(self):
        self.count += 1
        return f"tmp{self.count}"

    def node(self, op, inputs, outputs, **attrs):
        self.nodes.append(helper.make_node(op, inputs, outputs, **attrs))
        return outputs[0]

    def op(self, op):
        ins = {v.parameter: list(v.arguments) for v in op.inputs}
        outs = {v.parameter: list(v.arguments) for v in op.outputs}
        attrs = {a.name: attr_value(a) for a in op.attrs}
        fn = getattr(self, "op_" + op.type, None)
        if fn is None:
            raise ConvertError(f"op '{op.type}' (output {next(iter(outs.values()), ['?'])[0]}) "
                               "has no ONNX conversion here; the face detector's prior_box / "
                               "box_coder / multiclass_nms3 have none: convert face_detector_heads")
        fn(ins, outs, attrs)

    # ---- ops ----

    def op_conv2d(self, i, o, a):
        pads = list(a.get("paddings", [0, 0]))
        if a.get("padding_algorithm", "EXPLICIT") not in ("EXPLICIT", b"EXPLICIT", ""):
            raise ConvertError(f"conv2d {o['Output'][0]}: padding_algorithm "
                               f"{a['padding_algorithm']} is not converted")
        pads = pads * 2 if len(pads) == 2 else [pads[0], pads[2], pads[1], pads[3]]
        self.node("Conv", [i["Input"][0], i["Filter"][0]], o["Output"], strides=a["strides"],
                  pads=pads, dilations=a.get("dilations", [1, 1]), group=a.get("groups", 1))

    op_depthwise_conv2d = op_conv2d

    def op_batch_norm(self, i, o, a):
        self.node("BatchNormalization", [i["X"][0], i["Scale"][0], i["Bias"][0], i["Mean"][0],
                                         i["Variance"][0]], o["Y"][:1], epsilon=a["epsilon"])

    def binary(self, onnx_op, i, o, a):
        x, y = i["X"][0], i["Y"][0]
        axis, rx, ry = a.get("axis", -1), self.rank(x), self.rank(y)
        if y in self.params:
            ry = self.params[y].ndim
        if axis != -1 and axis + ry < rx:  # Paddle aligns Y at `axis`, ONNX at the end
            trailing = rx - axis - ry
            if y in self.params:  # the weight itself reshaped (initializers are made last)
                self.params[y] = self.params[y].reshape(self.params[y].shape + (1,) * trailing)
            else:
                y = self.node("Unsqueeze", [y, self.const(list(range(ry, ry + trailing)))],
                              [self.tmp()])
        self.node(onnx_op, [x, y], o["Out"])

    def op_elementwise_add(self, i, o, a):
        self.binary("Add", i, o, a)

    def op_elementwise_sub(self, i, o, a):
        self.binary("Sub", i, o, a)

    def op_elementwise_mul(self, i, o, a):
        self.binary("Mul", i, o, a)

    def op_elementwise_div(self, i, o, a):
        self.binary("Div", i, o, a)

    def unary(self, onnx_op, i, o, **attrs):
        self.node(onnx_op, [i["X"][0]], o["Out"], **attrs)

    def op_relu(self, i, o, a):
        self.unary("Relu", i, o)

    def op_sigmoid(self, i, o, a):
        self.unary("Sigmoid", i, o)

    def op_tanh(self, i, o, a):
        self.unary("Tanh", i, o)

    def op_sqrt(self, i, o, a):
        self.unary("Sqrt", i, o)

    def op_exp(self, i, o, a):
        self.unary("Exp", i, o)

    def op_pow(self, i, o, a):
        if "FactorTensor" in i and i["FactorTensor"]:
            raise ConvertError(f"pow {o['Out'][0]}: FactorTensor is not converted")
        self.node("Pow", [i["X"][0], self.const(a["factor"], np.float32)], o["Out"])

    def op_scale(self, i, o, a):
        s, b = a.get("scale", 1.0), a.get("bias", 0.0)
        x = i["X"][0]
        if a.get("bias_after_scale", True):
            y = self.node("Mul", [x, self.const(s, np.float32)], [self.tmp()])
            self.node("Add", [y, self.const(b, np.float32)], o["Out"])
        else:
            y = self.node("Add", [x, self.const(b, np.float32)], [self.tmp()])
            self.node("Mul", [y, self.const(s, np.float32)], o["Out"])

    def op_reduce_mean(self, i, o, a):
        x = i["X"][0]
        axes = list(range(self.rank(x))) if a.get("reduce_all", False) else a["dim"]
        self.node("ReduceMean", [x], o["Out"], axes=axes, keepdims=int(a.get("keep_dim", False)))

    def op_split(self, i, o, a):
        inputs = [i["X"][0]]
        if a.get("sections"):
            inputs.append(self.const(a["sections"]))
        self.node("Split", inputs, o["Out"], axis=a["axis"])

    def op_concat(self, i, o, a):
        self.node("Concat", i["X"], o["Out"], axis=a["axis"])

    def op_pixel_shuffle(self, i, o, a):
        # Paddle: out[c, h*r+i, w*r+j] = in[c*r*r + i*r + j, h, w], ONNX's CRD order.
        self.node("DepthToSpace", [i["X"][0]], o["Out"], blocksize=a["upscale_factor"],
                  mode="CRD")

    def op_pool2d(self, i, o, a):
        x, kind = i["X"][0], a["pooling_type"]
        kind = kind.decode() if isinstance(kind, bytes) else kind
        k = a["ksize"]
        if a.get("global_pooling", False) or (a.get("adaptive", False) and k == [1, 1]):
            self.node("GlobalAveragePool" if kind == "avg" else "GlobalMaxPool", [x], o["Out"])
            return
        if a.get("adaptive", False):
            if kind != "avg":
                raise ConvertError(f"pool2d {o['Out'][0]}: adaptive {kind} is not converted")
            # Adaptive average to k x k bins of a map whose H, W divide by k (the stand-in's
            # sizes): [N, C, kh, H/kh, kw, W/kw] averaged over axes 3 and 5. A size that does
            # not divide fails in Reshape rather than giving other numbers.
            shape = self.node("Shape", [x], [self.tmp()])
            nc = self.node("Slice", [shape, self.const([0]), self.const([2])], [self.tmp()])
            hw = self.node("Slice", [shape, self.const([2]), self.const([4])], [self.tmp()])
            per = self.node("Div", [hw, self.const(k)], [self.tmp()])
            h1 = self.node("Slice", [per, self.const([0]), self.const([1])], [self.tmp()])
            w1 = self.node("Slice", [per, self.const([1]), self.const([2])], [self.tmp()])
            dims = self.node("Concat", [nc, self.const([k[0]]), h1, self.const([k[1]]), w1],
                             [self.tmp()], axis=0)
            r = self.node("Reshape", [x, dims], [self.tmp()])
            self.node("ReduceMean", [r], o["Out"], axes=[3, 5], keepdims=0)
            return
        pads = list(a.get("paddings", [0, 0]))
        pads = pads * 2 if len(pads) == 2 else [pads[0], pads[2], pads[1], pads[3]]
        attrs = dict(kernel_shape=k, strides=a["strides"], pads=pads,
                     ceil_mode=int(a.get("ceil_mode", False)))
        if kind == "avg":
            attrs["count_include_pad"] = 0 if a.get("exclusive", True) else 1
        self.node("AveragePool" if kind == "avg" else "MaxPool", [x], o["Out"], **attrs)

    def op_pad(self, i, o, a):
        p = a["paddings"]  # Paddle: before/after per dim; ONNX: all befores, then all afters
        pads = p[0::2] + p[1::2]
        self.node("Pad", [i["X"][0], self.const(pads), self.const(a.get("pad_value", 0.0),
                                                                   np.float32)], o["Out"])

    def op_transpose2(self, i, o, a):
        self.node("Transpose", [i["X"][0]], o["Out"], perm=a["axis"])

    def op_reshape2(self, i, o, a):
        if i.get("Shape") or i.get("ShapeTensor"):
            raise ConvertError(f"reshape2 {o['Out'][0]}: a run-time shape is not converted")
        self.node("Reshape", [i["X"][0], self.const(a["shape"])], o["Out"])

    def op_squeeze2(self, i, o, a):
        self.node("Squeeze", [i["X"][0], self.const(a["axes"])], o["Out"])

    def op_flatten_contiguous_range(self, i, o, a):
        x, start, stop = i["X"][0], a["start_axis"], a["stop_axis"]
        if stop not in (-1, self.rank(x) - 1):  # ONNX's Flatten keeps no trailing axes
            raise ConvertError(f"flatten_contiguous_range {o['Out'][0]}: stop_axis {stop} "
                               "before the last axis is not converted")
        if start == 0:
            raise ConvertError(f"flatten_contiguous_range {o['Out'][0]}: start_axis 0 is not "
                               "converted")
        if start == 1:
            self.node("Flatten", [x], o["Out"], axis=1)
        else:
            self.node("Reshape", [x, self.const([0] * start + [-1])], o["Out"])

    def op_matmul_v2(self, i, o, a):
        x, y = i["X"][0], i["Y"][0]
        if a.get("trans_x", False):
            raise ConvertError(f"matmul_v2 {o['Out'][0]}: trans_x is not converted")
        if a.get("trans_y", False):
            y = self.node("Transpose", [y], [self.tmp()])  # a 2-D weight: swap its axes
        self.node("MatMul", [x, y], o["Out"])

    def op_dropout(self, i, o, a):
        # Inference: downgrade_in_infer (Paddle's default; the Python API's mode
        # "downscale_in_infer") scales by 1 - p, upscale_in_train passes X through.
        impl = a.get("dropout_implementation", "downgrade_in_infer")
        impl = impl.decode() if isinstance(impl, bytes) else impl
        if not a.get("is_test", False):
            raise ConvertError(f"dropout {o['Out'][0]}: is_test false is not converted")
        if impl == "upscale_in_train":
            self.node("Identity", [i["X"][0]], o["Out"])
        elif impl != "downgrade_in_infer":
            raise ConvertError(f"dropout {o['Out'][0]}: dropout_implementation {impl} is not "
                               "converted")
        else:
            keep = 1.0 - a.get("dropout_prob", 0.5)
            self.node("Mul", [i["X"][0], self.const(keep, np.float32)], o["Out"])

    def op_softmax(self, i, o, a):
        self.node("Softmax", [i["X"][0]], o["Out"], axis=a.get("axis", -1))

    def op_shape(self, i, o, a):
        s = self.node("Shape", [i["Input"][0]], [self.tmp()])
        self.node("Cast", [s], o["Out"], to=TensorProto.INT32)  # Paddle's shape is int32

    def op_slice(self, i, o, a):
        if i.get("StartsTensor") or i.get("EndsTensor") or i.get("StartsTensorList"):
            raise ConvertError(f"slice {o['Out'][0]}: run-time starts / ends are not converted")
        dec = a.get("decrease_axis", [])
        out = [self.tmp()] if dec else o["Out"]
        self.node("Slice", [i["Input"][0], self.const(a["starts"]), self.const(a["ends"]),
                            self.const(a["axes"])], out)
        if dec:
            self.node("Squeeze", [out[0], self.const(dec)], o["Out"])

    def op_bilinear_interp_v2(self, i, o, a):
        x = i["X"][0]
        if i.get("Scale") or a.get("scale"):
            raise ConvertError(f"bilinear_interp_v2 {o['Out'][0]}: scales are not converted")
        if i.get("OutSize"):
            hw = self.node("Cast", [i["OutSize"][0]], [self.tmp()], to=TensorProto.INT64)
        elif i.get("SizeTensor"):
            parts = [self.node("Cast", [s], [self.tmp()], to=TensorProto.INT64)
                     for s in i["SizeTensor"]]
            hw = self.node("Concat", parts, [self.tmp()], axis=0)
        else:
            hw = self.const([a["out_h"], a["out_w"]])
        shape = self.node("Shape", [x], [self.tmp()])
        nc = self.node("Slice", [shape, self.const([0]), self.const([2])], [self.tmp()])
        sizes = self.node("Concat", [nc, hw], [self.tmp()], axis=0)
        # Paddle: align_corners false + align_mode 0 is (dst + 0.5) * in / out - 0.5 clamped
        # at 0, ONNX's half_pixel (ORT clamps the same way); align_corners true is ONNX's.
        if a.get("align_corners", False):
            mode = "align_corners"
        elif a.get("align_mode", 1) == 0:
            mode = "half_pixel"
        else:
            mode = "asymmetric"
        self.node("Resize", [x, "", "", sizes], o["Out"], mode="linear",
                  coordinate_transformation_mode=mode)


def convert(model_dir, name):
    pb = framework_pb2()
    prog = pb.ProgramDesc()
    prog.ParseFromString(open(os.path.join(model_dir, "__model__"), "rb").read())
    block = prog.blocks[0]
    params = read_params(pb, block, os.path.join(model_dir, "__params__"))
    conv = Converter(block, params)
    feeds, fetches = [], []
    for op in block.ops:
        col = next((a.i for a in op.attrs if a.name == "col"), 0)
        if op.type == "feed":
            feeds.append((col, op.outputs[0].arguments[0]))
        elif op.type == "fetch":
            fetches.append((col, op.inputs[0].arguments[0]))
        else:
            conv.op(op)

    def value_info(var_name):
        t = conv.vars[var_name].type.lod_tensor.tensor
        dims = [d if d >= 0 else f"{var_name}_d{k}" for k, d in enumerate(t.dims)]
        return helper.make_tensor_value_info(var_name, ONNX_DTYPES[t.data_type], dims)

    used = {n for node in conv.nodes for n in node.input}
    conv.inits += [numpy_helper.from_array(a, n) for n, a in params.items() if n in used]
    graph = helper.make_graph(conv.nodes, name, [value_info(n) for _, n in sorted(feeds)],
                              [value_info(n) for _, n in sorted(fetches)], conv.inits)
    model = helper.make_model(graph, producer_name="standin_to_onnx",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7  # readable by onnxruntime 1.30 and by onnx 1.12's checker
    onnx.checker.check_model(model)
    return model, [n for _, n in sorted(feeds)], [n for _, n in sorted(fetches)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model_dir")
    ap.add_argument("--shape", default="1,3,256,256", help="the input's shape")
    ap.add_argument("--seed", type=int, default=1, help="numpy seed of the input")
    ap.add_argument("--high", type=float, default=1.0,
                    help="the input's values are uniform in [0, HIGH) (dqn: 255)")
    args = ap.parse_args()
    name = os.path.basename(os.path.normpath(args.model_dir))
    try:
        model, feeds, fetches = convert(args.model_dir, name)
    except ConvertError as e:
        sys.exit(f"standin_to_onnx: {args.model_dir}: {e}")
    ref = os.path.join(args.model_dir, "reference")
    os.makedirs(ref, exist_ok=True)
    onnx.save(model, os.path.join(ref, "model.onnx"))
    shape = [int(d) for d in args.shape.split(",")]
    x = np.random.RandomState(args.seed).uniform(0, args.high, shape).astype(np.float32)
    x.tofile(os.path.join(ref, "x.bin"))
    meta = {
        "model": name,
        "task": f"stand-in {name} (tools/standin_models.h), random weights",
        "format": "combined",
        "model_file": "__model__",
        "params_file": "__params__",
        "paths_relative_to": "the model folder (the parent of reference/)",
        "inputs": [{"name": feeds[0], "feed_col": 0, "shape": shape, "dtype": "float32",
                    "file": "x.bin",
                    "generator": f"numpy RandomState({args.seed}).uniform(0, {args.high:g}), "
                                 "float32"}],
        "output_names": fetches,
        "outputs": [],
        "tolerance": {"max_abs": 1e-4, "max_rel": 1e-3,
                      "rule": "elementwise |engine - reference| <= max_abs + max_rel * "
                              "|reference| (fp32 inference)"},
        "onnx_model": "model.onnx",
        "onnx_opset": 13,
        "reference": "onnxruntime CPU on model.onnx from tools/standin_to_onnx.py, outputs "
                     "written by tools/ort_outputs.js",
    }
    with open(os.path.join(ref, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(f"wrote {ref}/model.onnx ({len(model.graph.node)} nodes), x.bin {shape}, meta.json")


if __name__ == "__main__":
    main()
