"""LongMemEval's yes/no judge: the benchmark's published prompt templates (LongMemEval,
`src/evaluation/evaluate_qa.py`, MIT licence), asked with temperature 0 and 10 output tokens;
the verdict is "yes" anywhere in the reply, as there."""

from __future__ import annotations

from typing import Any

from graphmem.llm.client import LLMClient

_DEFAULT = (
    "I will give you a question, a correct answer, and a response from a model. Please answer yes "
    "if the response contains the correct answer. Otherwise, answer no. If the response is "
    "equivalent to the correct answer or contains all the intermediate steps to get the correct "
    "answer, you should also answer yes. If the response only contains a subset of the information "
    "required by the answer, answer no. \n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: "
    "{}\n\nIs the model response correct? Answer yes or no only.")
_TEMPORAL = (
    "I will give you a question, a correct answer, and a response from a model. Please answer yes "
    "if the response contains the correct answer. Otherwise, answer no. If the response is "
    "equivalent to the correct answer or contains all the intermediate steps to get the correct "
    "answer, you should also answer yes. If the response only contains a subset of the information "
    "required by the answer, answer no. In addition, do not penalize off-by-one errors for the "
    "number of days. If the question asks for the number of days/weeks/months, etc., and the model "
    "makes off-by-one errors (e.g., predicting 19 days when the answer is 18), the model's response "
    "is still correct. \n\nQuestion: {}\n\nCorrect Answer: {}\n\nModel Response: {}\n\nIs the model "
    "response correct? Answer yes or no only.")
_UPDATE = (
    "I will give you a question, a correct answer, and a response from a model. Please answer yes "
    "if the response contains the correct answer. Otherwise, answer no. If the response contains "
    "some previous information along with an updated answer, the response should be considered as "
    "correct as long as the updated answer is the required answer.\n\nQuestion: {}\n\nCorrect "
    "Answer: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.")
_PREFERENCE = (
    "I will give you a question, a rubric for desired personalized response, and a response from a "
    "model. Please answer yes if the response satisfies the desired response. Otherwise, answer no. "
    "The model does not need to reflect all the points in the rubric. The response is correct as "
    "long as it recalls and utilizes the user's personal information correctly.\n\nQuestion: {}\n\n"
    "Rubric: {}\n\nModel Response: {}\n\nIs the model response correct? Answer yes or no only.")
_ABSTENTION = (
    "I will give you an unanswerable question, an explanation, and a response from a model. Please "
    "answer yes if the model correctly identifies the question as unanswerable. The model could say "
    "that the information is incomplete, or some other information is given but the asked "
    "information is not.\n\nQuestion: {}\n\nExplanation: {}\n\nModel Response: {}\n\nDoes the model "
    "correctly identify the question as unanswerable? Answer yes or no only.")
TEMPLATES = {"single-session-user": _DEFAULT, "single-session-assistant": _DEFAULT,
             "multi-session": _DEFAULT, "temporal-reasoning": _TEMPORAL,
             "knowledge-update": _UPDATE, "single-session-preference": _PREFERENCE}


def judge_prompt(question_type: str, question: str, answer: str, response: str,
                 abstention: bool) -> str:
    if abstention:
        return _ABSTENTION.format(question, answer, response)
    if question_type not in TEMPLATES:
        raise ValueError(f"no judge template for question type {question_type!r}")
    return TEMPLATES[question_type].format(question, answer, response)


def judge(client: LLMClient, question_type: str, question: str, answer: str, response: str,
          abstention: bool) -> tuple[bool, str]:
    """(correct?, the judge's reply)."""
    reply: Any = client.chat([{"role": "user", "content": judge_prompt(
        question_type, question, answer, response, abstention)}], temperature=0, max_tokens=10)
    choices = getattr(reply, "choices", None) or []
    text = (getattr(choices[0].message, "content", None) or "") if choices else ""
    return "yes" in text.strip().lower(), text.strip()
