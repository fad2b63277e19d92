"""int8 weights whose result for a message depends on that message alone (training only: needs onnx).

onnxruntime's dynamic quantisation scales a MatMul's input by one range over the whole batch
tensor, so a message's tags moved with the other messages of its batch: of 300 corpus messages,
16 were tagged differently alone than in batches of 32 (weights 8e62e54de13b), and in ingest a
turn's facts depended on the other turns of its session. Static quantisation (one range fixed
from calibration messages) is batch-free but lost a quarter of the agreement with fp32. Here every
row (token) of a MatMul's input gets its own range: a message's tokens are quantised from their
own values, so its tags are the same in any batch, and closer to fp32's than per-batch ranges
(docs/bench/2026-12-05-per-token-int8.md).

Each MatMul with a constant weight becomes: the row's largest magnitude m (ReduceMax/ReduceMin),
the input times 127/m quantised to uint8 with zero point 128 (QuantizeLinear, scale 1), an int8
MatMul with the weight (int8, a scale per output column, 7-bit range as before: no saturation
on CPUs without VNNI) to float (`MatMulIntegerToFloat`), times m/127. Inputs shared by several
MatMuls (query, key and value) are quantised once. Every 2-D table read by Gather (the word and
position embeddings) is stored int8 with a scale per row.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

WEIGHT_MAX = 63  # 7-bit weights (int8 range halved): u8 x s8 pairs never saturate int16
MSFT = "com.microsoft"


def _int8(array: np.ndarray, axis: int, top: int) -> tuple[np.ndarray, np.ndarray]:
    """`array` as int8 in [-top, top] with a scale per slice along `axis` (kept, for broadcasting)."""
    scale = np.maximum(np.abs(array).max(axis, keepdims=True), 1e-12) / top
    return (np.clip(np.round(array / scale), -top, top).astype(np.int8),
            scale.astype(np.float32))


def per_token_int8(src: Path, dst: Path) -> None:
    """Write `src` (fp32 ONNX) to `dst` with per-token int8 MatMuls and int8 tables."""
    model = onnx.load(str(src))
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    uses: dict[str, int] = {}
    for node in graph.node:
        for name in node.input:
            uses[name] = uses.get(name, 0) + 1

    def const(name: str, array: np.ndarray) -> str:
        graph.initializer.append(numpy_helper.from_array(array, name))
        return name

    inputs = {i.name for i in graph.input}
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 17)

    def drop(name: str) -> None:
        # an initializer listed as a graph input may be fed by the caller: it stays
        if uses.get(name) == 1 and name not in inputs:
            graph.initializer.remove(inits[name])

    def row_range(op: str, x: str, out: str) -> onnx.NodeProto:
        """ReduceMax / ReduceMin over the last axis (an attribute before opset 18, an input
        from 18)."""
        if opset >= 18:
            return helper.make_node(op, [x, "q_last"], [out], keepdims=1)
        return helper.make_node(op, [x], [out], axes=[-1], keepdims=1)

    def matrix(node: onnx.NodeProto, op: str, at: int) -> np.ndarray | None:
        """The 2-D constant input `at` of an `op` node, if it has one."""
        if node.op_type != op or node.input[at] not in inits \
                or inits[node.input[at]].data_type != TensorProto.FLOAT:
            return None
        if any(a.name == "axis" and a.i != 0 for a in node.attribute):
            return None  # a Gather along another axis than rows
        array = numpy_helper.to_array(inits[node.input[at]]).astype(np.float32)
        return array if array.ndim == 2 else None

    def replace(node: onnx.NodeProto, nodes: list[onnx.NodeProto]) -> None:
        at = list(graph.node).index(node)
        graph.node.remove(node)
        for k, new in enumerate(nodes):
            graph.node.insert(at + k, new)

    const("q_127", np.array(127.0, np.float32))
    const("q_eps", np.array(1e-8, np.float32))
    const("q_one", np.array(1.0, np.float32))
    const("q_zp", np.array(128, np.uint8))
    const("q_wzp", np.array(0, np.int8))
    if opset >= 18:
        const("q_last", np.array([-1], np.int64))
    quantised: dict[str, tuple[str, str]] = {}  # input → (its uint8 rows, their scales)
    for k, node in enumerate(list(graph.node)):
        if (w := matrix(node, "MatMul", 1)) is None:
            continue
        p = f"q{k}_"
        wq, ws = _int8(w, 0, WEIGHT_MAX)
        const(p + "w", wq)
        const(p + "ws", ws[0])  # a scale per output column
        drop(node.input[1])
        x, nodes = node.input[0], []
        if x not in quantised:
            quantised[x] = (p + "xq", p + "s")
            nodes = [
                row_range("ReduceMax", x, p + "hi"),
                row_range("ReduceMin", x, p + "lo"),
                helper.make_node("Neg", [p + "lo"], [p + "nlo"]),
                helper.make_node("Max", [p + "hi", p + "nlo", "q_eps"], [p + "m"]),
                helper.make_node("Div", [p + "m", "q_127"], [p + "s"]),
                helper.make_node("Div", ["q_127", p + "m"], [p + "r"]),
                helper.make_node("Mul", [x, p + "r"], [p + "xr"]),
                helper.make_node("QuantizeLinear", [p + "xr", "q_one", "q_zp"], [p + "xq"]),
            ]
        xq, scale = quantised[x]
        replace(node, nodes + [
            helper.make_node("MatMulIntegerToFloat",
                             [xq, p + "w", "q_one", p + "ws", "q_zp", "q_wzp"], [p + "y"],
                             domain=MSFT),
            helper.make_node("Mul", [p + "y", scale], [node.output[0]]),
        ])
    for k, node in enumerate(list(graph.node)):
        if (table := matrix(node, "Gather", 0)) is None:
            continue
        p = f"g{k}_"
        tq, ts = _int8(table, 1, 127)
        const(p + "t", tq)
        const(p + "ts", ts)  # a scale per row
        drop(node.input[0])
        ids = node.input[1]
        replace(node, [
            helper.make_node("Gather", [p + "t", ids], [p + "rows"]),
            helper.make_node("Gather", [p + "ts", ids], [p + "scales"]),
            helper.make_node("Cast", [p + "rows"], [p + "f"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [p + "f", p + "scales"], [node.output[0]]),
        ])
    if not any(o.domain == MSFT for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid(MSFT, 1))
    onnx.save(model, str(dst))
