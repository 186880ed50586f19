"""Issue 22: the fake provider's Responses and generateContent routes behave like the real APIs:
shapes, ids, usage, chaining, and the 400s a harness must never trigger."""

from __future__ import annotations

import base64
import io
from typing import Any

import httpx
from PIL import Image

from webfovea.dialects.loopback.fake_provider import FakeProvider, ScriptedPolicy
from webfovea.dialects.loopback.native_reply import NativeReply


def _png() -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (1440, 810), "white").save(buffer, "PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


URL = "data:image/png;base64," + _png()
GA = [{"type": "computer"}]


def post(fp: FakeProvider, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"http://127.0.0.1:{fp.port}{path}", json=body, timeout=30)


def task(text: str = "go") -> list[dict[str, Any]]:
    return [{"role": "user", "content": [{"type": "input_text", "text": text},
                                          {"type": "input_image", "image_url": URL}]}]


def screenshot(call_id: str, **extra: Any) -> dict[str, Any]:
    return {"type": "computer_call_output", "call_id": call_id,
            "output": {"type": "computer_screenshot", "image_url": URL}, **extra}


CLICK = {"type": "click", "button": "left", "x": 1, "y": 2}


def test_responses_shapes_chaining_usage_and_400s() -> None:
    replies = [NativeReply(items=({"type": "reasoning", "text": "look first"},
                            {"type": "computer_call", "actions": [CLICK, {"type": "wait"}],
                             "pending_safety_checks": [{"code": "sensitive_domain",
                                                        "message": "m"}]})),
               "The answer is 4."]
    with FakeProvider(ScriptedPolicy(replies)) as fp:
        first = post(fp, "/v1/responses", {"model": "gpt-5.4", "tools": GA, "input": task()})
        assert first.status_code == 200
        body = first.json()
        assert body["object"] == "response" and body["id"].startswith("resp_")
        reasoning, call = body["output"]
        assert reasoning["type"] == "reasoning" and reasoning["id"].startswith("rs_")
        assert call["actions"] == [CLICK, {"type": "wait"}] and "action" not in call
        check = call["pending_safety_checks"][0]
        assert check["id"].startswith("cu_sc_") and check["code"] == "sensitive_domain"
        assert body["usage"]["output_tokens_details"]["reasoning_tokens"] == 2
        chained = {"model": "gpt-5.4", "tools": GA, "previous_response_id": body["id"]}
        # the call left without its output
        missing = post(fp, "/v1/responses", {**chained, "input": task("next")})
        assert missing.status_code == 400
        assert f"No tool output found for computer call {call['call_id']}" in missing.text
        # the output without the acknowledgement
        unacked = post(fp, "/v1/responses", {**chained, "input": [screenshot(call["call_id"])]})
        assert unacked.status_code == 400 and "unacknowledged safety check" in unacked.text
        unknown = post(fp, "/v1/responses", {**chained, "previous_response_id": "resp_nope",
                                             "input": []})
        assert unknown.status_code == 400 and "resp_nope" in unknown.text
        acked = post(fp, "/v1/responses", {**chained, "input": [
            screenshot(call["call_id"], acknowledged_safety_checks=[check])]})
        assert acked.status_code == 200, acked.text
        final = acked.json()
        assert final["output"][0]["content"][0] == {"type": "output_text",
                                                    "text": "The answer is 4.",
                                                    "annotations": []}
        usage = final["usage"]
        # the whole first request is a cached prefix of the chained one
        assert usage["input_tokens_details"]["cached_tokens"] >= 1024
        assert usage["input_tokens"] >= usage["input_tokens_details"]["cached_tokens"]
    assert len(fp.requests) == 2  # the rejected requests never reached the policy


def test_responses_preview_sends_one_action_and_full_input_is_checked() -> None:
    preview = [{"type": "computer_use_preview", "display_width": 1440, "display_height": 810,
                "environment": "browser"}]
    replies = [NativeReply(items=({"type": "computer_call", "actions": [CLICK]},)), "ok"]
    with FakeProvider(ScriptedPolicy(replies)) as fp:
        body = post(fp, "/v1/responses", {"model": "computer-use-preview", "tools": preview,
                                          "input": task(), "truncation": "auto"}).json()
        call = body["output"][0]
        assert call["action"] == CLICK and "actions" not in call
        # full input instead of chaining: the call must be followed by its output
        history = [*task(), call]
        bad = post(fp, "/v1/responses", {"model": "computer-use-preview", "tools": preview,
                                         "input": history})
        assert bad.status_code == 400 and "No tool output found" in bad.text
        orphan = post(fp, "/v1/responses", {"model": "computer-use-preview", "tools": preview,
                                            "input": [*task(), screenshot("call_x")]})
        assert orphan.status_code == 400 and "No tool call found" in orphan.text
        good = post(fp, "/v1/responses", {"model": "computer-use-preview", "tools": preview,
                                          "input": [*history, screenshot(call["call_id"])]})
        assert good.status_code == 200, good.text


GEMINI = "/v1beta/models/gemini-3.5-flash:generateContent"
TOOLS = [{"computerUse": {"environment": "ENVIRONMENT_BROWSER"}}]


def user(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "parts": list(parts)}


def answer(name: str, response: dict[str, Any]) -> dict[str, Any]:
    return {"functionResponse": {"name": name, "response": response,
                                 "parts": [{"inlineData": {"mimeType": "image/png",
                                                           "data": _png()}}]}}


def test_gemini_shapes_usage_and_400s() -> None:
    decision = {"decision": "require_confirmation", "explanation": "buying"}
    replies = [NativeReply(items=({"text": "plan", "thought": True},
                            {"functionCall": {"name": "click", "args": {
                                "x": 5, "y": 5, "safety_decision": decision}}},
                            {"functionCall": {"name": "wait", "args": {"seconds": 1}}})),
               "It is 4."]
    start = user({"text": "go"}, {"inlineData": {"mimeType": "image/png", "data": _png()}})
    with FakeProvider(ScriptedPolicy(replies)) as fp:
        first = post(fp, GEMINI, {"contents": [start], "tools": TOOLS})
        assert first.status_code == 200, first.text
        body = first.json()
        model = body["candidates"][0]["content"]
        assert model["role"] == "model" and body["candidates"][0]["finishReason"] == "STOP"
        assert model["parts"][1]["thoughtSignature"]
        meta = body["usageMetadata"]
        assert meta["thoughtsTokenCount"] == 1 and "cachedContentTokenCount" not in meta
        assert meta["totalTokenCount"] == (meta["promptTokenCount"] + meta["candidatesTokenCount"]
                                           + meta["thoughtsTokenCount"])
        acked = answer("click", {"url": "u", "safety_acknowledgement": "true"})
        waited = answer("wait", {"url": "u"})
        one_short = post(fp, GEMINI, {"contents": [start, model, user(acked)], "tools": TOOLS})
        assert one_short.status_code == 400
        assert one_short.json()["error"]["status"] == "INVALID_ARGUMENT"
        assert "number of function response parts" in one_short.text
        unacked = post(fp, GEMINI, {"contents": [start, model, user(
            answer("click", {"url": "u"}), waited)], "tools": TOOLS})
        assert unacked.status_code == 400
        assert "safety decision from function call click must be acknowledged" in unacked.text
        unsigned = {"role": "model", "parts": [
            {k: v for k, v in p.items() if k != "thoughtSignature"} for p in model["parts"]]}
        stripped = post(fp, GEMINI, {"contents": [start, unsigned, user(acked, waited)],
                                     "tools": TOOLS})
        assert stripped.status_code == 400 and "thought_signature" in stripped.text
        good = post(fp, GEMINI, {"contents": [start, model, user(acked, waited)],
                                 "tools": TOOLS})
        assert good.status_code == 200, good.text
        assert good.json()["candidates"][0]["content"]["parts"] == [{"text": "It is 4."}]
        assert good.json()["usageMetadata"]["cachedContentTokenCount"] >= 1024
    assert len(fp.requests) == 2


def test_gemini_key_and_malformed_function_call() -> None:
    replies = [NativeReply(items=(), finish="MALFORMED_FUNCTION_CALL")]
    with FakeProvider(ScriptedPolicy(replies), api_key="k-123") as fp:
        start = user({"text": "go"})
        denied = post(fp, GEMINI, {"contents": [start]})
        assert denied.status_code == 400 and "API key not valid" in denied.text
        ok = httpx.post(f"http://127.0.0.1:{fp.port}{GEMINI}", json={"contents": [start]},
                        headers={"x-goog-api-key": "k-123"}, timeout=30)
        candidate = ok.json()["candidates"][0]
        assert candidate["finishReason"] == "MALFORMED_FUNCTION_CALL"
        assert candidate["content"]["parts"] == []
