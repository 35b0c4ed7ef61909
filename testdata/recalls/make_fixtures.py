#!/usr/bin/env python3
"""Writes testdata/recalls/sessions/: crabtalk v0.0.22 session folders with
recall tool calls, each file what serde_json::to_vec writes for crabtalk's
types (see README.md for the type behind every shape). Run from this folder;
the output is checked in and the tests never run this script."""
import json, os, shutil

def js(v):  # serde_json::to_vec: compact, fields in declaration order, UTF-8 unescaped
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode()

def entry(role, content, agent=""):  # HistoryEntry: agent skipped when empty
    e = {}
    if agent:
        e["agent"] = agent
    e["message"] = {"role": role, "content": content}
    return e

def tool_use(id, input, text=""):  # HistoryEntry::assistant(text, None, calls)
    blocks = [{"type": "text", "text": text}] if text else []
    return blocks + [{"type": "tool_use", "id": id, "name": "recall", "input": input}]

def tool_result(id, content):  # HistoryEntry::tool(content, call_id, "recall")
    return [{"type": "tool_result", "tool_use_id": id, "name": "recall", "content": content}]

def block(name, content):  # recall.rs: format!("## {}\n{}", name, content)
    return "## %s\n%s" % (name, content)

SEP = "\n---\n"  # recall.rs: .join("\n---\n")

ENTRIES = {json.loads(l)["name"]: json.loads(l)["content"]
           for l in open("../reference/crmem/small.entries.jsonl")}

def result_of(*names):
    return SEP.join(block(n, ENTRIES[n]) for n in names)

def meta(agent, by, created, updated, n):  # ConversationMeta, summary None skipped
    return {"agent": agent, "created_by": by, "created_at": created, "title": "",
            "updated_at": updated, "message_count": n}

sessions = {
    "crab_alice_1": {
        "meta": meta("crab", "alice", "2026-01-05T09:00:00+00:00", "2026-01-05T09:03:00+00:00", 5),
        "steps": [
            entry("user", [{"type": "text", "text": "how do we roll back a bad deploy?"}]),
            entry("assistant", tool_use("toolu_01", {"query": "deploy rollback"})),
            {"event": "tool_start", "calls": [{"id": "toolu_01", "name": "recall",
             "arguments": "{\"query\":\"deploy rollback\"}"}], "ts": "2026-01-05T09:00:05.250+00:00"},
            entry("user", tool_result("toolu_01", result_of("deploy-steps", "archive-sess-0001-1767300000000000000"))),
            {"event": "tool_result", "call_id": "toolu_01", "duration_ms": 3, "ts": "2026-01-05T09:00:05.253+00:00"},
            entry("assistant", tool_use("toolu_02", {"query": "postgres pool deadlock", "limit": 2}, "checking memory")),
            entry("user", tool_result("toolu_02", "no memories found")),
            {"archive_name": "archive-sess-0004-1767600000000000000", "archived_at": "2026-01-05T09:10:00+00:00"},
        ],
    },
    "crab_bob_1": {  # no meta file: the agent comes from the folder's name
        "steps": [
            entry("assistant", tool_use("toolu_10", {})),  # arguments that were not JSON are kept as {}
            entry("user", tool_result("toolu_10", "invalid arguments: missing field `query` at line 1 column 2")),
            entry("assistant", tool_use("toolu_11", {"query": "flaky tests", "limit": "3"})),
            b"garbage that is not JSON",
            entry("assistant", tool_use("toolu_12", {"query": "token rotation"})),
            entry("user", tool_result("toolu_12", "recall failed: index busy")),
            entry("assistant", tool_use("toolu_13", {"query": "release checklist", "limit": 1})),
            {"message": {"content": "a message without a role"}},
            entry("assistant", tool_use("toolu_14", {"query": "rust style"}), agent="scout"),
            entry("user", [{"type": "tool_result", "tool_use_id": "toolu_14", "name": "recall",
                            "content": [{"type": "text", "text": result_of("rust-style")}]}]),
        ],
    },
    "scratchpad": {  # neither meta nor a {agent}_{sender}_{seq} name: unknown agent
        "steps": [  # the OpenAI-shaped message of crabllm's chat types
            {"message": {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
             "function": {"name": "recall", "arguments": "{\"query\":\"commit format\",\"limit\":3}"}}]}},
            {"message": {"role": "tool", "content": result_of("commit-format"), "tool_call_id": "call_1", "name": "recall"}},
        ],
    },
}

shutil.rmtree("sessions", ignore_errors=True)
for name, s in sessions.items():
    d = os.path.join("sessions", name)
    os.makedirs(d)
    if "meta" in s:
        open(os.path.join(d, "meta"), "wb").write(js(s["meta"]))
    for i, st in enumerate(s["steps"]):
        open(os.path.join(d, "step-%06d" % i), "wb").write(st if isinstance(st, bytes) else js(st))
