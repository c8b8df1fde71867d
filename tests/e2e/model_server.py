"""A scripted model endpoint speaking the Anthropic Messages API, for the real Claude Code.

On ``scripted_http``'s loopback server. Each *conversation* is matched by
a marker string found in its first user message; its turns are answered in order:
the next turn is the first whose tool uses the history does not hold yet, so retries and side
requests never shift the script. A turn is a list of blocks: ``text(...)`` or
``tool_use(name, input)``; a turn with a tool use ends with ``stop_reason: "tool_use"``, any
other with ``"end_turn"``. A request no conversation matches (titles, summaries, checks) gets a
short text reply. Every request is recorded (path, headers, body) so tests can look at what the
model was sent, tool results included.
"""

from __future__ import annotations

import json
from typing import Any

from scripted_http import Exchange, ScriptedHTTP

__all__ = ["Conversation", "ModelServer", "text", "tool_use"]

Block = dict[str, Any]
_NOT_SCRIPTED = {"type": "error", "error": {"type": "not_found_error", "message": "not scripted"}}


def text(value: str) -> Block:
    return {"type": "text", "text": value}


def tool_use(name: str, tool_input: dict[str, Any]) -> Block:
    return {"type": "tool_use", "name": name, "input": tool_input}


class Conversation:
    """Turns for the conversation whose first user message contains ``marker``."""

    def __init__(self, marker: str, turns: list[list[Block]]) -> None:
        self.marker = marker
        self.turns = turns


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text_of(b.get("text") or b.get("content")) for b in content
                         if isinstance(b, dict))  # fmt: skip
    return ""


class ModelServer(ScriptedHTTP):
    def __init__(self, conversations: list[Conversation]) -> None:
        super().__init__()
        self.conversations = conversations

    def __enter__(self) -> ModelServer:
        return super().__enter__()  # type: ignore[no-any-return]

    def get(self, exchange: Exchange) -> None:
        exchange.json(404, _NOT_SCRIPTED)

    def post(self, exchange: Exchange) -> None:
        body = exchange.body
        if exchange.path.endswith("/count_tokens"):
            exchange.json(200, {"input_tokens": 100})
        elif not exchange.path.endswith("/v1/messages") or not isinstance(body, dict):
            exchange.json(404, _NOT_SCRIPTED)
        elif body.get("stream"):
            exchange.stream(self._events(body, self._reply(body)))
        else:
            exchange.json(200, self._message(body, self._reply(body)))

    # --- inspection ---------------------------------------------------------------------------

    def message_requests(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests
                if r["method"] == "POST" and r["path"].split("?")[0].endswith("/v1/messages")
                and isinstance(r["body"], dict)]  # fmt: skip

    def tool_results(self) -> list[dict[str, Any]]:
        """Every tool_result block the model was sent, deduplicated by tool_use_id."""
        seen: dict[str, dict[str, Any]] = {}
        for body in self.message_requests():
            for message in body.get("messages", []):
                content = message.get("content")
                if message.get("role") != "user" or not isinstance(content, list):
                    continue
                for block in content:
                    if isinstance(block, dict) and block.get("type") == "tool_result":
                        seen[block["tool_use_id"]] = {
                            **block,
                            "text": _text_of(block.get("content")),
                        }
        return list(seen.values())

    def result_for(self, name: str, marker: str = "") -> list[dict[str, Any]]:
        """Tool results for tool uses of ``name`` the script sent (optionally in one conversation)."""
        ids = {b["id"] for c in self.conversations if marker in c.marker
               for turn in c.turns for b in turn if b["type"] == "tool_use" and b["name"] == name and "id" in b}  # fmt: skip
        return [r for r in self.tool_results() if r["tool_use_id"] in ids]

    # --- replies -----------------------------------------------------------------------------

    def _reply(self, body: dict[str, Any]) -> list[Block]:
        """The first turn of the matching conversation not yet played: a turn is played once
        the request's history holds its tool uses (Claude Code merges and reorders messages,
        so counting them would drift). A turn without tool uses ends the conversation."""
        messages = body.get("messages") or []
        first = next((m for m in messages if m.get("role") == "user"), None)
        first_text = _text_of(first.get("content")) if first else ""
        played = {
            b.get("id")
            for m in messages
            if m.get("role") == "assistant" and isinstance(m.get("content"), list)
            for b in m["content"]
            if isinstance(b, dict) and b.get("type") == "tool_use"
        }
        for conversation in self.conversations:
            if conversation.marker in first_text and body.get("tools"):
                for turn in conversation.turns:
                    ids = [b.get("id") for b in turn if b["type"] == "tool_use"]
                    if not ids or not all(i in played for i in ids):
                        return turn
                return [text("Done.")]
        return [text("OK.")]

    def _ids_for(self, blocks: list[Block]) -> list[Block]:
        out = []
        for block in blocks:
            if block["type"] == "tool_use" and "id" not in block:
                block["id"] = self.next_id("toolu")  # stable across retries
            out.append(block)
        return out

    def _message(self, body: dict[str, Any], blocks: list[Block]) -> dict[str, Any]:
        blocks = self._ids_for(blocks)
        stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
        return {
            "id": "msg_e2e", "type": "message", "role": "assistant",
            "model": body.get("model", "claude-e2e"), "content": blocks,
            "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 100, "output_tokens": 20,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
        }  # fmt: skip

    def _events(self, body: dict[str, Any], blocks: list[Block]) -> list[tuple[str, Any]]:
        message = self._message(body, blocks)
        start = {**message, "content": [], "stop_reason": None,
                 "usage": {**message["usage"], "output_tokens": 1}}  # fmt: skip
        events: list[tuple[str, Any]] = [("message_start", {"type": "message_start",
                                                            "message": start})]  # fmt: skip
        for i, block in enumerate(message["content"]):
            if block["type"] == "text":
                events.append(("content_block_start", {"type": "content_block_start", "index": i,
                               "content_block": {"type": "text", "text": ""}}))  # fmt: skip
                events.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                               "delta": {"type": "text_delta", "text": block["text"]}}))  # fmt: skip
            else:
                events.append(("content_block_start", {"type": "content_block_start", "index": i,
                               "content_block": {"type": "tool_use", "id": block["id"],
                                                 "name": block["name"], "input": {}}}))  # fmt: skip
                raw = json.dumps(block["input"])
                for part in (raw[: len(raw) // 2], raw[len(raw) // 2 :]):
                    events.append(("content_block_delta", {"type": "content_block_delta",
                                   "index": i, "delta": {"type": "input_json_delta",
                                                         "partial_json": part}}))  # fmt: skip
            events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
        events.append(("message_delta", {"type": "message_delta",
                       "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                       "usage": {"output_tokens": 20}}))  # fmt: skip
        events.append(("message_stop", {"type": "message_stop"}))
        return events
