"""The learned extractor: a token tagger over user messages, fine-tuned from bge-small (issue 31).

`train` fine-tunes it on the labelled corpus and exports int8 ONNX weights to `weights/`;
`infer.ModelTagger` runs them with onnxruntime and `tokenizers` only (no torch);
`scoring` measures predicted facts against the corpus's labels. See README.md beside this file.
"""

from __future__ import annotations

WEIGHTS_DIR = __import__("pathlib").Path(__file__).parent / "weights"
