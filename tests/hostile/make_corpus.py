#!/usr/bin/env python3
"""Writes the hostile-record corpus of this folder from one record the
program wrote (`canasta play --seed 5 --record x.jsonl`, its first line):
markup, script, terminal controls, very long strings and odd Unicode in
every string field. Each file is one record that the reader must refuse
with a one-line error (tests/hostile.sh, tests/python, the record fuzzer's
seeds).  python3 make_corpus.py BASE.jsonl"""
import json
import sys

base = json.loads(open(sys.argv[1]).readline())

PAYLOADS = {
    "img": '<img src=x onerror="document.body.innerHTML=\'<h1 id=injected>INJECTED</h1>\'">',
    "alert": '<img src=x onerror=alert(1)>',
    "script": "</script><script>document.body.dataset.pwned=1</script>",
    "comment": "<!--<script>x=1</script>",
    "quote": "random\" onmouseover=\"alert(1)",
    "ansi": "evil\u001b[2J\u001b]0;owned\u0007",
    "c1": "random\u009b2J",
    "newline": "random\nheuristic",
    "nul": "random\u0000",
    "bidi": "random\u202emodnar",
    "zero_width": "ran\u200bdom",
    "emoji": "random\U0001F0CF",
    "surrogate": "random\ud800",
    "long": "random:" + ",".join(["take_min=3"] * 200),
    "very_long": "a" * 20000,
    "space": "random heuristic",
    "empty": "",
}


def write(name, record):
    with open(name + ".jsonl", "w") as f:
        f.write(json.dumps(record, separators=(",", ":"), ensure_ascii=True) + "\n")


for key, payload in PAYLOADS.items():
    r = json.loads(json.dumps(base))
    r["agents"][1] = payload
    write("agents-" + key, r)
for field in ("format", "kind", "profile", "deck"):
    for key in ("img", "ansi", "bidi", "very_long"):
        r = json.loads(json.dumps(base))
        r[field] = PAYLOADS[key] if field != "profile" else "classic," + PAYLOADS[key]
        write(field + "-" + key, r)
for key in ("img", "ansi"):
    r = json.loads(json.dumps(base))
    r["actions"][0][1] = PAYLOADS[key]
    write("action-" + key, r)
    r = json.loads(json.dumps(base))
    r["result"]["end"] = PAYLOADS[key]
    write("end-" + key, r)
    r = json.loads(json.dumps(base))
    r["result"]["game"] = PAYLOADS[key]
    write("game-" + key, r)
# Raw bytes that are not UTF-8 inside the agent string.
r = json.loads(json.dumps(base))
r["agents"][1] = "RAWBYTES"
line = json.dumps(r, separators=(",", ":")).encode().replace(b"RAWBYTES", b"ran\xc0\xafdom\xff")
open("agents-bad_utf8.jsonl", "wb").write(line + b"\n")
