#!/usr/bin/env python3
"""Deterministic generator of a crabtalk sessions folder, for timing
`crmem recalls` (issue 30 item 11).

    crmem --db big.db ls --json > entries.json
    scripts/gen-sessions.py --entries entries.json --out DIR/sessions \
        [--sessions 500] [--recalls 10000] [--seed 7] [--words FILE]

Writes DIR/sessions/{agent}_{sender}_{seq}/ folders, each a meta file and
~120 step-NNNNNN files in crabtalk's exact shapes (copied from
face/demo/data/sessions and store/sessions/testdata): per round a
user message, an assistant message with a recall tool_use (sometimes a
second call to another tool), its tool_result blocks, an assistant text,
sometimes a plain user message, then the round's tool_start event.
Results list 1-5 of the memory's entries, at most the call's limit, as
the recall tool writes them ("## name\\ncontent" joined by "\\n---\\n"),
or "no memories found". Queries and texts are drawn from 35 words of
the agent's topics, or from the words of FILE (one a line, in order):
scripts/wide-words.txt holds the 216 words of four letters or more of
the 100k corpus (`gen_corpus.py --seed 7`), for recalls that ask many
different words (`--words scripts/wide-words.txt --seed 23`). The same
arguments give the same bytes.
Nothing here is committed data: write it outside the repository.
"""
import argparse
import json
import os
import random

WORDS = ("deploy rollback postgres migration schema index flaky test fixture "
         "token oauth session react render terraform dns latency alert owner "
         "reviewer standup borrow lifetime tokio cargo memory recall archive "
         "compaction summary release canary staging production pipeline").split()
AGENTS = ["crab", "ledger", "pager", "docs"]
SENDERS = ["alice", "bob", "carol", "dana", "eun-ji"]


def dumps(v):
    # serde_json's compact form: no spaces, non-ASCII kept as is.
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def words(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def result_text(rng, entries, limit):
    """What the recall tool returns: at most limit entries."""
    if rng.random() < 0.1:
        return "no memories found"
    picks = rng.sample(entries, rng.randint(1, min(5, limit)))
    return "\n---\n".join("## %s\n%s" % (e["name"], e["content"]) for e in picks)


def session(rng, entries, recalls, ts0):
    """The steps of one session with recalls recall calls."""
    steps, t = [], ts0
    for r in range(recalls):
        steps.append({"message": {"role": "user", "content": [{"type": "text", "text": words(rng, 3, 12)}]}})
        query = words(rng, 1, 4)
        args = {"query": query}
        if rng.random() < 0.2:
            args["limit"] = rng.randint(1, 8)
        calls = [("call_0" if rng.random() < 0.3 else "toolu_%06d" % rng.randrange(10**6), "recall", args)]
        if rng.random() < 0.35:
            calls.append(("toolu_%06d" % rng.randrange(10**6), "bash", {"command": "make test " + words(rng, 1, 3)}))
        content = []
        if rng.random() < 0.5:
            content.append({"type": "text", "text": words(rng, 2, 8)})
        content += [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in calls]
        steps.append({"message": {"role": "assistant", "content": content}})
        for i, n, a in calls:
            text = result_text(rng, entries, a.get("limit", 5)) if n == "recall" else "ok\n" + words(rng, 5, 40)
            steps.append({"message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": i, "name": n, "content": text}]}})
        steps.append({"message": {"role": "assistant", "content": [{"type": "text", "text": words(rng, 10, 60)}]}})
        if rng.random() < 0.65:
            steps.append({"message": {"role": "user", "content": words(rng, 2, 10)}})
        t += rng.randint(5, 600)
        steps.append({"event": "tool_start", "calls": [
            {"id": i, "name": n, "arguments": dumps(a)} for i, n, a in calls],
            "ts": "2026-%02d-%02dT%02d:%02d:%02d+00:00" % (1 + t // 2419200 % 12, 1 + t // 86400 % 28, t // 3600 % 24, t // 60 % 60, t % 60)})
    return steps


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", required=True, help="crmem ls --json output")
    ap.add_argument("--out", required=True, help="the sessions folder to write (must not exist)")
    ap.add_argument("--sessions", type=int, default=500)
    ap.add_argument("--recalls", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--words", help="a file of the words to draw from, one a line (default: 35 built in)")
    a = ap.parse_args()
    if a.words:
        global WORDS
        with open(a.words, encoding="utf-8") as f:
            WORDS = f.read().split()
    rng = random.Random(a.seed)
    with open(a.entries, encoding="utf-8") as f:
        entries = sorted(json.load(f), key=lambda e: e["name"])
    os.makedirs(a.out)
    per, extra = divmod(a.recalls, a.sessions)
    total = 0
    for s in range(a.sessions):
        agent, sender = AGENTS[s % len(AGENTS)], SENDERS[s % len(SENDERS)]
        d = os.path.join(a.out, "%s_%s_%d" % (agent, sender, s))
        os.makedirs(d)
        with open(os.path.join(d, "meta"), "w", encoding="utf-8") as f:
            f.write(dumps({"agent": agent, "created_by": sender, "title": words(rng, 2, 5)}))
        steps = session(rng, entries, per + (1 if s < extra else 0), 86400 * (s % 300))
        for i, st in enumerate(steps):
            with open(os.path.join(d, "step-%06d" % i), "w", encoding="utf-8") as f:
                f.write(dumps(st))
        total += len(steps)
    print("%d sessions, %d steps, %d recalls" % (a.sessions, total, a.recalls))


if __name__ == "__main__":
    main()
