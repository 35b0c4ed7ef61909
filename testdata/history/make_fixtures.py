#!/usr/bin/env python3
"""Writes testdata/history/sessions/: crabtalk v0.0.22 session folders with
remember and forget tool calls, each file what serde_json::to_vec writes for
crabtalk's types (README.md names the type and code line behind every
shape), and sets every file's modification time (git keeps none: the tests
copy the folder and set them again from expected.json's "mtimes"). Run from
any folder; the output is checked in and the tests never run this script.
expected.json is written by hand, not by this script."""
import calendar, json, os, shutil, time

os.chdir(os.path.dirname(os.path.abspath(__file__)))  # sessions/ is written beside this script

def js(v):  # serde_json::to_vec: compact, fields in declaration order, UTF-8 unescaped
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode()

def args(v):  # a model's tool arguments: a JSON text of their own
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)

def entry(role, content, agent=""):  # HistoryEntry: agent skipped when empty
    e = {}
    if agent:
        e["agent"] = agent
    e["message"] = {"role": role, "content": content}
    return e

def user(text):  # HistoryEntry::user: Message::user, content a string
    return entry("user", text)

def say(text):  # HistoryEntry::assistant(text, None, None): one text block
    return entry("assistant", [{"type": "text", "text": text}])

def calls(*cs, agent=""):  # HistoryEntry::assistant("", None, calls): a tool_use block per call
    # input is a serde_json::Value parsed from the arguments: an object is a
    # BTreeMap (no preserve_order in v0.0.22's Cargo.lock), keys sorted
    return entry("assistant", [{"type": "tool_use", "id": id, "name": name, "input": dict(sorted(input.items()))}
                               for id, name, input, _ in cs], agent)

def call(id, name, input, raw=None):  # a call: its input as parsed, and the raw arguments text
    return (id, name, input, args(input) if raw is None else raw)

def result(id, name, text):  # HistoryEntry::tool(text, id, name): a tool_result block
    return entry("user", [{"type": "tool_result", "tool_use_id": id, "name": name, "content": text}])

def tool_start(ts, *cs):  # EventLine::ToolStart: ToolCallTrace {id, name, arguments}
    return {"event": "tool_start", "calls": [{"id": id, "name": name, "arguments": raw}
                                            for id, name, _, raw in cs], "ts": ts}

def tool_done(ts, id, ms):  # EventLine::ToolResult
    return {"event": "tool_result", "call_id": id, "duration_ms": ms, "ts": ts}

def meta(agent, by, title, created, updated, n):  # ConversationMeta, summary None skipped
    return {"agent": agent, "created_by": by, "created_at": created, "title": title,
            "updated_at": updated, "message_count": n}

def remember(id, name, content, aliases=None, raw=None):  # remember.rs: {name, content, aliases?}
    a = {"name": name, "content": content}
    if aliases is not None:
        a["aliases"] = aliases
    return call(id, "remember", a, raw)

def forget(id, name):  # forget.rs: {name}
    return call(id, "forget", {"name": name})

def ok_remember(c):
    return result(c[0], "remember", "remembered: " + c[2]["name"])

# deploy-steps in three versions, over two sessions.
DS1 = "1. Tag the release.\n2. Roll out to staging, wait 10 minutes.\n3. Roll out to production."
DS2 = ("1. Tag the release.\n2. Roll out to staging, wait 10 minutes.\n"
       "3. Canary 5 % for 15 minutes, then 100 %.\n4. Roll back with `kubectl rollout undo`.")
DS3 = DS2.replace("wait 10 minutes", "wait 5 minutes")

d1 = remember("toolu_01", "deploy-steps", DS1, ["ship"])
rc = call("toolu_02", "recall", {"query": "deploy steps"})
d2 = remember("toolu_03", "deploy-steps", DS2, ["ship", "release"])
vpn = remember("toolu_04", "vpn-notes", "Split tunnel: only 10.0.0.0/8 goes through the VPN.")  # no aliases: serde default []
fv = forget("toolu_05", "vpn-notes")

rota = remember("toolu_10", "oncall-rota", "Week 2: bob primary, carol secondary.", ["rota"])
d3 = remember("toolu_11", "deploy-steps", DS3, ["ship", "release", "rollout"])
links = remember("toolu_12", "runbook-links", "Runbooks: https://wiki.internal/runbooks")
RAW = '{"name":"pager-escalation","content":"Escal'  # the model's arguments, cut off: not JSON
bad = ("toolu_13", "remember", {}, RAW)  # HistoryEntry::assistant keeps them as {}
esc = remember("toolu_20", "pager-escalation", "Escalate to payments after 15 minutes.")
nosuch = forget("toolu_21", "no-such")
scout = remember("toolu_22", "scout-findings", "The staging cluster runs out of IPs at 240 pods.", ["ipam"])

# Runs: the steps one run appends (its messages, then its events:
# persist_messages), and when they were written (each next step a second
# later: the modification times).
sessions = {
    "crab_alice_1": {
        "meta": meta("crab", "alice", "deploy pipeline", "2026-01-05T08:59:58.412903117+00:00",
                     "2026-01-05T09:20:12.730118004+00:00", 0),
        "runs": [
            ("2026-01-05T09:00:06Z", [
                user("write down how we deploy billing"),
                calls(d1), ok_remember(d1),
                say("Saved as deploy-steps."),
                tool_start("2026-01-05T09:00:04.118302551+00:00", d1),
                tool_done("2026-01-05T09:00:04.121530006+00:00", "toolu_01", 3),
            ]),
            ("2026-01-05T09:10:12Z", [
                user("the canary is in place now: update the deploy steps, and note the vpn split tunnel"),
                calls(rc), result("toolu_02", "recall", "## deploy-steps\n" + DS1),
                calls(d2), ok_remember(d2),
                calls(vpn), ok_remember(vpn),
                say("Updated deploy-steps and saved vpn-notes."),
                tool_start("2026-01-05T09:10:03.500417209+00:00", rc),
                tool_done("2026-01-05T09:10:03.502904118+00:00", "toolu_02", 2),
                tool_start("2026-01-05T09:10:07.880250313+00:00", d2),
                tool_done("2026-01-05T09:10:07.884011950+00:00", "toolu_03", 3),
                tool_start("2026-01-05T09:10:09.015577842+00:00", vpn),
                tool_done("2026-01-05T09:10:09.018240771+00:00", "toolu_04", 2),
            ]),
            ("2026-01-05T09:20:07Z", [
                user("that vpn note is wrong, forget it"),
                calls(fv), result("toolu_05", "forget", "forgot: vpn-notes"),
                say("Forgot vpn-notes."),
                tool_start("2026-01-05T09:20:05.161093874+00:00", fv),
                tool_done("2026-01-05T09:20:05.163377021+00:00", "toolu_05", 2),
            ]),
        ],
    },
    "crab_bob_1": {
        "meta": meta("crab", "bob", "pager night", "2026-01-06T21:58:40.007731562+00:00",
                     "2026-01-06T22:31:06.219460338+00:00", 0),
        "runs": [
            ("2026-01-06T22:05:30Z", [
                user("pager night: set the rota, and staging waits 5 minutes now"),
                calls(rota, d3),  # one message, two calls: results in call order
                ok_remember(rota), ok_remember(d3),
                calls(links), result("toolu_12", "remember", "failed to save entry: No space left on device (os error 28)"),
                calls(bad), result("toolu_13", "remember", "invalid arguments: EOF while parsing a string at line 1 column %d" % len(RAW)),
                say("Saved the rota and the deploy steps; the runbook links could not be saved."),
                tool_start("2026-01-06T22:05:21.330985113+00:00", rota, d3),
                tool_done("2026-01-06T22:05:21.334571920+00:00", "toolu_10", 3),
                tool_done("2026-01-06T22:05:21.335102377+00:00", "toolu_11", 4),
                tool_start("2026-01-06T22:05:24.702664018+00:00", links),
                tool_done("2026-01-06T22:05:24.706815552+00:00", "toolu_12", 4),
                tool_start("2026-01-06T22:05:26.948012436+00:00", bad),
                tool_done("2026-01-06T22:05:26.948200913+00:00", "toolu_13", 0),
            ]),
            ("2026-01-06T22:31:00Z", [  # no events: the calls' times are the step files'
                user("add the escalation rule"),
                calls(esc),  # no result: missing
                user("never mind; and forget no-such"),
                calls(nosuch), result("toolu_21", "forget", "no entry named: no-such"),
                calls(scout, agent="scout"), ok_remember(scout),  # a guest agent's call
            ]),
        ],
    },
    "scratchpad": {  # neither meta nor an {agent}_{sender}_{seq} name: unknown agent
        "runs": [  # crabllm's chat Message; Gemini ids: every round's first call is call_0
            ("2026-01-07T10:00:09Z", [
                {"message": {"role": "user", "content": "remember our commit style"}},
                {"message": {"role": "assistant", "tool_calls": [{"id": "call_0", "type": "function", "function": {
                    "name": "remember", "arguments": args({"content": "Subject in imperative mood.", "name": "commit-style"})}}]}},
                {"message": {"role": "tool", "content": "remembered: commit-style", "tool_call_id": "call_0", "name": "remember"}},
                {"message": {"role": "assistant", "tool_calls": [{"id": "call_0", "type": "function", "function": {
                    "name": "remember", "arguments": args({"aliases": ["commits"], "content": "Subject in imperative mood, at most 72 characters.", "name": "commit-style"})}}]}},
                {"message": {"role": "tool", "content": "remembered: commit-style", "tool_call_id": "call_0", "name": "remember"}},
                {"message": {"role": "assistant", "content": "Saved the commit style."}},
                {"event": "tool_start", "calls": [{"id": "call_0", "name": "remember", "arguments": args({"content": "Subject in imperative mood.", "name": "commit-style"})}],
                 "ts": "2026-01-07T10:00:02.640021787+00:00"},
                {"event": "tool_start", "calls": [{"id": "call_0", "name": "remember", "arguments": args({"aliases": ["commits"], "content": "Subject in imperative mood, at most 72 characters.", "name": "commit-style"})}],
                 "ts": "2026-01-07T10:00:05.911843305+00:00"},
            ]),
            ("2026-01-07T10:15:04Z", [
                {"message": {"role": "user", "content": "we squash-merge now, forget the commit style"}},
                {"message": {"role": "assistant", "tool_calls": [{"id": "call_0", "type": "function", "function": {
                    "name": "forget", "arguments": args({"name": "commit-style"})}}]}},
                {"message": {"role": "tool", "content": "forgot: commit-style", "tool_call_id": "call_0", "name": "forget"}},
                {"event": "tool_start", "calls": [{"id": "call_0", "name": "forget", "arguments": args({"name": "commit-style"})}],
                 "ts": "2026-01-07T10:15:01.207554160+00:00"},
            ]),
        ],
    },
}

def epoch(rfc):  # "2026-01-05T09:00:06Z" -> seconds
    return calendar.timegm(time.strptime(rfc, "%Y-%m-%dT%H:%M:%SZ"))

shutil.rmtree("sessions", ignore_errors=True)
for name, s in sessions.items():
    d = os.path.join("sessions", name)
    os.makedirs(d)
    n, last = 0, 0
    for written, steps in s["runs"]:
        for k, st in enumerate(steps):
            p = os.path.join(d, "step-%06d" % n)
            open(p, "wb").write(js(st))
            last = epoch(written) + k
            os.utime(p, (last, last))
            n += 1
    if "meta" in s:
        m = s["meta"]
        m["message_count"] = sum(1 for _, steps in s["runs"] for st in steps if "message" in st)
        p = os.path.join(d, "meta")
        open(p, "wb").write(js(m))
        os.utime(p, (last, last))

# The modification times, for expected.json's "mtimes" (checked by hand
# against the runs above, then pasted).
if os.environ.get("PRINT_MTIMES"):
    for name in sorted(sessions):
        for f in sorted(os.listdir(os.path.join("sessions", name))):
            t = os.stat(os.path.join("sessions", name, f)).st_mtime
            print('    "%s/%s": "%s",' % (name, f, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))))
