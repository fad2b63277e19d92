"""The tagger's int8 export: a row's result depends on that row alone, and stays close to fp32."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("onnx")


def _fp32_model(path, rng):
    """Token ids → an embedding table → two MatMuls sharing their input (as query and key do) →
    their sum → a third MatMul: the shapes of the tagger's encoder, small."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    vocab, k, n = 50, 16, 8
    inits = [numpy_helper.from_array(rng.normal(size=(vocab, k)).astype(np.float32), "table"),
             numpy_helper.from_array(rng.normal(size=(k, n)).astype(np.float32), "wq"),
             numpy_helper.from_array(rng.normal(size=(k, n)).astype(np.float32), "wk"),
             numpy_helper.from_array(rng.normal(size=(n, 4)).astype(np.float32), "wo"),
             numpy_helper.from_array(rng.normal(size=(n,)).astype(np.float32), "bias")]
    nodes = [helper.make_node("Gather", ["table", "ids"], ["x"]),
             helper.make_node("MatMul", ["x", "wq"], ["q"]),
             helper.make_node("MatMul", ["x", "wk"], ["kk"]),
             helper.make_node("Add", ["q", "kk"], ["h0"]),
             helper.make_node("Add", ["h0", "bias"], ["h"]),
             helper.make_node("MatMul", ["h", "wo"], ["y"])]
    graph = helper.make_graph(
        nodes, "tiny", [helper.make_tensor_value_info("ids", TensorProto.INT64, ["b", "t"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["b", "t", 4])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                                   ir_version=8), str(path))


def _run(path, ids):
    import onnxruntime as ort
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return sess.run(None, {"ids": ids})[0]


def test_a_row_is_quantised_from_its_own_values(tmp_path):
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from graphmem.extract.model.quantize import per_token_int8

    rng = np.random.default_rng(5)
    fp32, q8, dyn = tmp_path / "fp32.onnx", tmp_path / "q8.onnx", tmp_path / "dyn.onnx"
    _fp32_model(fp32, rng)
    # a word whose embedding is far larger than the others: batch-wide ranges coarsen the rest
    table = onnx.load(str(fp32))
    big = onnx.numpy_helper.to_array(table.graph.initializer[0]).copy()
    big[49] *= 40
    table.graph.initializer[0].CopyFrom(onnx.numpy_helper.from_array(big, "table"))
    onnx.save(table, str(fp32))
    per_token_int8(fp32, q8)
    quantize_dynamic(str(fp32), str(dyn), weight_type=QuantType.QInt8)

    row = rng.integers(0, 40, size=(1, 6))
    loud = np.full((1, 6), 49)
    batch = np.concatenate([row, loud])
    alone, together = _run(q8, row)[0], _run(q8, batch)[0]
    assert np.array_equal(alone, together)  # bit for bit, whatever the batch holds
    want = _run(fp32, row)[0]
    assert np.abs(alone - want).max() < 0.02 * np.abs(want).max()
    # the per-batch quantisation it replaces: the loud row changes the quiet one's result
    assert not np.array_equal(_run(dyn, row)[0], _run(dyn, batch)[0])
    # no float weight is left: the tables and the MatMul weights are int8
    stored = {i.name: i.data_type for i in onnx.load(str(q8)).graph.initializer}
    assert not {"table", "wq", "wk", "wo"} & stored.keys()
    big_inits = [i for i in onnx.load(str(q8)).graph.initializer if np.prod(i.dims) >= 64]
    assert big_inits and all(i.data_type == onnx.TensorProto.INT8 for i in big_inits)


def test_what_it_does_not_understand_it_leaves_float(tmp_path):
    """At opset 18 the row ranges take their axis as an input; a Gather along columns and a
    table of integers are left as they are."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from graphmem.extract.model.quantize import per_token_int8

    rng = np.random.default_rng(9)
    inits = [numpy_helper.from_array(rng.normal(size=(6, 6)).astype(np.float32), "cols"),
             numpy_helper.from_array(rng.integers(0, 5, size=(6, 6)).astype(np.int64), "ints"),
             numpy_helper.from_array(rng.normal(size=(6, 3)).astype(np.float32), "w")]
    nodes = [helper.make_node("Gather", ["cols", "ids"], ["c"], axis=1),
             helper.make_node("Gather", ["ints", "ids"], ["i"]),
             helper.make_node("MatMul", ["x", "w"], ["y"])]
    graph = helper.make_graph(
        nodes, "edges", [helper.make_tensor_value_info("ids", TensorProto.INT64, [2]),
                         helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("i", TensorProto.INT64, [2, 6]),
         helper.make_tensor_value_info("c", TensorProto.FLOAT, [6, 2])], inits)
    src, dst = tmp_path / "fp32.onnx", tmp_path / "q8.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)],
                                ir_version=8), str(src))
    per_token_int8(src, dst)
    import onnxruntime as ort
    feeds = {"ids": np.array([1, 4]), "x": rng.normal(size=(2, 6)).astype(np.float32)}
    want = ort.InferenceSession(str(src), providers=["CPUExecutionProvider"]).run(None, feeds)
    got = ort.InferenceSession(str(dst), providers=["CPUExecutionProvider"]).run(None, feeds)
    assert np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])
    assert np.abs(got[0] - want[0]).max() < 0.03 * np.abs(want[0]).max()
    kept = {i.name for i in onnx.load(str(dst)).graph.initializer}
    assert {"cols", "ints"} <= kept and "w" not in kept
