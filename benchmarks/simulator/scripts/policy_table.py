#!/usr/bin/env python3
"""Markdown table of `./bench sim --json` results against the peers' best of the Caffeine-simulator anchors.

Usage: policy_table.py ANCHORS.txt[,ANCHORS.txt...] RESULT.json [RESULT.json...]

One row per trace and size found in both the results and the anchors; one column per policy, in the
order of the first result file, rows sorted by trace and size. The best per row is bold, opt and
caffeine (the Caffeine cache, not one of the anchors' peers) aside. The peers' best is the anchors'
best column per row, Opt aside. Two summary rows count, per policy, the cells within 1 point of the
peers' best and the cells more than 0.1 below muninn. docs/policies.md shows the commands that produce the result files.
"""
import json
import os
import re
import sys

NOT_BOLD = {"opt", "caffeine"}
SHORT = {"global-clock": "g-clock", "clock-pro-plus": "cp-plus", "bitset-history": "bitset",
         "bitset-history-exact": "bitset-exact", "deferred-lru": "d-lru", "w-tinylfu-adaptive": "w-tlfu-adapt"}


def anchors(paths):
    best = {}
    for path in paths:
        trace = None
        for line in open(path):
            header = re.match(r"# (?:\.\./traces/)?(\S+?)(?:\.trace)?\.(?:gz|xz|zst) ", line)
            if header:
                trace = header.group(1)
                continue
            row = re.match(r"size=(\d+) \| (.*)", line)
            if row and trace:
                cells = [cell.strip().rsplit(" ", 1) for cell in row.group(2).split("|")]
                # The last of equal bests, as the tables in docs/policies.md have always named it.
                value, _, name = max((float(v), i, n) for i, (n, v) in enumerate(cells) if n != "Opt")
                best[(trace, int(row.group(1)))] = (value, name)
    return best


def trace_name(path):
    return re.sub(r"(\.trace)?\.(gz|xz|zst)$", "", os.path.basename(path))


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    best = anchors(argv[1].split(","))
    policies, rows = None, []
    for path in argv[2:]:
        documents = json.load(open(path))
        # One trace: the trace's object; several: {"traces": [...], "summary": ...}.
        for doc in documents.get("traces", [documents]):
            hits = {(r["policy"], r["size"]): 100 * r["hitRatio"] for r in doc["results"]}
            if policies is None:
                policies = list(dict.fromkeys(r["policy"] for r in doc["results"]))
            trace = trace_name(doc["trace"])
            for size in sorted({size for _, size in hits}):
                if (trace, size) in best:
                    rows.append((trace, size, hits))
    if not rows:
        sys.exit("no trace and size of the results is in the anchors")
    ours = [p for p in policies if p not in NOT_BOLD]
    rows.sort(key=lambda row: (row[0], row[1]))
    shown = [p for p in policies if p != "opt"]
    opt = ["opt"] if "opt" in policies else []
    within = dict.fromkeys(policies, 0)
    below = dict.fromkeys(policies, 0)
    print("| trace @ size | " + " | ".join(SHORT.get(p, p) for p in shown) + " | peers' best |" + "".join(" opt |" for _ in opt))
    print("|---|" + "---:|" * (len(policies) + 1))
    for trace, size, hits in rows:
        peer, peer_name = best[(trace, size)]
        top = max(round(hits[(p, size)], 2) for p in ours)
        cells = []
        for p in shown:
            value = round(hits[(p, size)], 2)
            cells.append(f"**{value:.2f}**" if p in ours and value == top else f"{value:.2f}")
            within[p] += value >= peer - 1
            below[p] += ("muninn", size) in hits and value < round(hits[("muninn", size)], 2) - 0.1
        tail = "".join(f" {hits[('opt', size)]:.2f} |" for _ in opt)
        print(f"| {trace} @{size} | " + " | ".join(cells) + f" | {peer:.2f} {peer_name} |" + tail)
    empty = " |" * (1 + len(opt))
    print(f"| **within 1 point of the peers' best** (of {len(rows)}) | " + " | ".join(str(within[p]) for p in shown) + empty)
    if "muninn" in policies:
        print("| **more than 0.1 below muninn** | " + " | ".join(str(below[p]) for p in shown) + empty)


if __name__ == "__main__":
    main(sys.argv)
