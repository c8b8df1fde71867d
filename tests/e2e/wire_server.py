"""A scripted model endpoint for the non-Anthropic hosts: OpenAI Responses (Codex), OpenAI Chat
Completions (Copilot CLI, OpenCode, pi) and Gemini generateContent over SSE (Gemini CLI).

On ``scripted_http``'s loopback server. A *script* is matched by a marker
found anywhere in a request's input; it is a list of turns, each either ``call(name, args)`` (the
model calls a tool) or ``say(text)``. The turn to play is the number of tool results the request
already carries, so retries never shift the script. A request no script matches gets a short
text reply. Every request body is recorded, so tests can look at what the model was sent back
(tool results included).
"""

from __future__ import annotations

import json
from typing import Any

from scripted_http import Exchange, ScriptedHTTP

__all__ = ["Script", "WireServer", "call", "say"]

Turn = dict[str, Any]


def call(name: str, arguments: dict[str, Any]) -> Turn:
    return {"type": "call", "name": name, "arguments": arguments}


def say(text: str) -> Turn:
    return {"type": "text", "text": text}


class Script:
    def __init__(self, marker: str, turns: list[Turn]) -> None:
        self.marker = marker
        self.turns = turns


def _count_results(body: dict[str, Any]) -> int:
    """Tool results already in the request, in any of the three wire formats."""
    n = 0
    for item in body.get("input") or []:  # Responses
        if isinstance(item, dict) and item.get("type") in (
            "function_call_output", "custom_tool_call_output", "local_shell_call_output"
        ):  # fmt: skip
            n += 1
    for message in body.get("messages") or []:  # Chat Completions
        if isinstance(message, dict) and message.get("role") == "tool":
            n += 1
    for content in body.get("contents") or []:  # Gemini
        for part in content.get("parts") or [] if isinstance(content, dict) else []:
            if isinstance(part, dict) and "functionResponse" in part:
                n += 1
    return n


class WireServer(ScriptedHTTP):
    def __init__(self, scripts: list[Script]) -> None:
        super().__init__()
        self.scripts = scripts

    def __enter__(self) -> WireServer:
        return super().__enter__()  # type: ignore[no-any-return]

    def get(self, exchange: Exchange) -> None:
        if exchange.path.rstrip("/").endswith("/models"):
            models = {"object": "list", "data": [{"id": "e2e-model", "object": "model",
                                                  "owned_by": "e2e"}], "models": []}  # fmt: skip
            exchange.json(200, models)
            return
        super().get(exchange)

    def post(self, exchange: Exchange) -> None:
        body = exchange.body if isinstance(exchange.body, dict) else {}
        turn = self._turn(body)
        path = exchange.path
        if path.endswith("/responses"):
            exchange.stream(self._responses(body, turn))
        elif path.endswith("/chat/completions"):
            if body.get("stream"):
                exchange.stream(self._chat(body, turn), tail=b"data: [DONE]\n\n")
            else:
                exchange.json(200, self._chat_message(body, turn))
        elif ":generateContent" in path:
            exchange.json(200, self._gemini(turn))
        elif ":streamGenerateContent" in path:
            exchange.stream([(None, self._gemini(turn))])
        else:
            super().post(exchange)

    def _turn(self, body: dict[str, Any]) -> Turn:
        text = json.dumps(body)
        for script in self.scripts:
            if script.marker in text:
                played = _count_results(body)
                if played < len(script.turns):
                    return script.turns[played]
                return say("Done.")
        return say("OK.")

    # --- Responses (Codex) ------------------------------------------------------------------

    def _responses(self, body: dict[str, Any], turn: Turn) -> list[tuple[str | None, Any]]:
        rid = self.next_id("resp")
        if turn["type"] == "call":
            item: dict[str, Any] = {"type": "function_call", "id": self.next_id("fc"),
                                    "call_id": self.next_id("call"), "name": turn["name"],
                                    "arguments": json.dumps(turn["arguments"]),
                                    "status": "completed"}  # fmt: skip
        else:
            item = {"type": "message", "id": self.next_id("msg"), "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": turn["text"],
                                 "annotations": []}]}  # fmt: skip
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": 15}  # fmt: skip
        response = {"id": rid, "object": "response", "status": "completed", "output": [item],
                    "usage": usage, "model": body.get("model", "e2e-model")}  # fmt: skip
        return [
            (
                "response.created",
                {
                    "type": "response.created",
                    "response": {**response, "status": "in_progress", "output": []},
                },
            ),
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": 0, "item": item},
            ),
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ),
            ("response.completed", {"type": "response.completed", "response": response}),
        ]

    # --- Chat Completions (Copilot CLI, OpenCode, pi) ---------------------------------------

    def _chat_message(self, body: dict[str, Any], turn: Turn) -> dict[str, Any]:
        if turn["type"] == "call":
            message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [
                {"id": self.next_id("call"), "type": "function",
                 "function": {"name": turn["name"], "arguments": json.dumps(turn["arguments"])}}
            ]}  # fmt: skip
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": turn["text"]}
            finish = "stop"
        return {"id": self.next_id("chatcmpl"), "object": "chat.completion", "created": 1,
                "model": body.get("model", "e2e-model"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                          "total_tokens": 15}}  # fmt: skip

    def _chat(self, body: dict[str, Any], turn: Turn) -> list[tuple[str | None, Any]]:
        cid = self.next_id("chatcmpl")
        base = {"id": cid, "object": "chat.completion.chunk", "created": 1,
                "model": body.get("model", "e2e-model")}  # fmt: skip
        if turn["type"] == "call":
            delta: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [
                {"index": 0, "id": self.next_id("call"), "type": "function",
                 "function": {"name": turn["name"],
                              "arguments": json.dumps(turn["arguments"])}}]}  # fmt: skip
            finish = "tool_calls"
        else:
            delta = {"role": "assistant", "content": turn["text"]}
            finish = "stop"
        return [
            (None, {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}),
            (
                None,
                {
                    **base,
                    "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                },
            ),
        ]

    # --- Gemini generateContent -------------------------------------------------------------

    def _gemini(self, turn: Turn) -> dict[str, Any]:
        if turn["type"] == "call":
            part: dict[str, Any] = {"functionCall": {"name": turn["name"],
                                                     "args": turn["arguments"]}}  # fmt: skip
        else:
            part = {"text": turn["text"]}
        return {"candidates": [{"content": {"role": "model", "parts": [part]},
                                "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                  "totalTokenCount": 15}}  # fmt: skip
