"""The tagger's encoders: bge-small rebuilt in float from its int8 ONNX export reads text as the
export does, so fine-tuning starts from bge-small and not from noise."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("transformers")


def test_bge_small_rebuilt_from_int8_matches_the_export(tmp_path):
    import onnxruntime as ort
    import torch
    from tokenizers import Tokenizer
    from transformers import BertModel

    from graphmem.config import Settings
    from graphmem.embed.onnx import MODELS, model_files
    from graphmem.extract.model.encoders import dequantise

    src = model_files(MODELS["bge-small"], Settings.from_env().local.cache_dir)
    dequantise(src / "model.onnx", tmp_path, heads=12)
    model = BertModel.from_pretrained(str(tmp_path), add_pooling_layer=False).eval()
    assert model.config.num_hidden_layers == 12
    tok = Tokenizer.from_file(str(src / "tokenizer.json"))
    sess = ort.InferenceSession(str(src / "model.onnx"), providers=["CPUExecutionProvider"])
    texts = ["we moved to hove last week and the commute is killing me",
             "my sister finally got a puppy, a beagle called biscuit"]
    for text in texts:
        ids = np.array([tok.encode(text).ids], dtype=np.int64)
        mask = np.ones_like(ids)
        want = sess.run(None, {"input_ids": ids, "attention_mask": mask,
                               "token_type_ids": np.zeros_like(ids)})[0][0]
        with torch.no_grad():
            got = model(input_ids=torch.from_numpy(ids),
                        attention_mask=torch.from_numpy(mask)).last_hidden_state[0].numpy()
        cos = (want * got).sum(-1) / np.linalg.norm(want, axis=-1) / np.linalg.norm(got, axis=-1)
        assert cos.min() > 0.99, (text, cos.min())
    # a weight left at its random initialisation would not agree: the check has teeth
    with torch.no_grad():
        model.encoder.layer[5].attention.self.query.weight.normal_()
        ids = np.array([tok.encode(texts[0]).ids], dtype=np.int64)
        got = model(input_ids=torch.from_numpy(ids)).last_hidden_state[0].numpy()
    want = sess.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids),
                           "token_type_ids": np.zeros_like(ids)})[0][0]
    cos = (want * got).sum(-1) / np.linalg.norm(want, axis=-1) / np.linalg.norm(got, axis=-1)
    assert cos.min() < 0.99
