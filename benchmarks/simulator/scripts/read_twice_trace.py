#!/usr/bin/env python3
"""A synthetic trace where every policy can reach OPT: each key is read once, and half of them once more soon after.

Shaped like the vaultservice trace that the Caffeine anchors list (135,702 requests, 90,468 keys; at 500 entries LRU
and FIFO at OPT's 33.33%, CLOCK-Pro 0.03 below, Sieve, LIRS and a 1% W-TinyLFU near 0), which this repository does
not have: 90,468 keys in order, and
for half of them, chosen at random, a second read MIN to MAX requests later. With a cache of a few hundred pages
an LRU keeps every second read; a policy that protects a small cold area (CLOCK-Pro's 1% floor) loses some of
them while it adapts. docs/policies.md shows what best-of and muninn get on it.

Usage: read_twice_trace.py OUT.trace.gz [--keys N] [--min D] [--max D] [--seed S]
Then: ./bench sim --format lirs --policies default,muninn,clock-pro --sizes 500,1000,5000 OUT.trace.gz
"""
import argparse
import gzip
import heapq
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the trace to write (LIRS format: one key per line, gzip)")
    parser.add_argument("--keys", type=int, default=90_468, help="distinct keys (default: vaultservice's 90,468)")
    parser.add_argument("--min", type=int, default=5, help="fewest requests between a key's two reads (default 5)")
    parser.add_argument("--max", type=int, default=50, help="most requests between a key's two reads (default 50)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    args = parser.parse_args()
    if args.keys < 1 or args.min < 1 or args.max < args.min:
        parser.error(f"need keys >= 1 and 1 <= min <= max, got keys={args.keys} min={args.min} max={args.max}")
    rng = random.Random(args.seed)
    second_reads = []  # (position due, key)
    requests = []
    next_key = 0
    while next_key < args.keys or second_reads:
        if second_reads and (second_reads[0][0] <= len(requests) or next_key == args.keys):
            requests.append(heapq.heappop(second_reads)[1])
            continue
        key = next_key
        next_key += 1
        if rng.random() < 0.5:
            heapq.heappush(second_reads, (len(requests) + rng.randint(args.min, args.max), key))
        requests.append(key)
    with gzip.open(args.out, "wt") as out:
        out.write("\n".join(map(str, requests)) + "\n")
    print(f"{args.out}: {len(requests):,} requests, {args.keys:,} keys")


if __name__ == "__main__":
    main()
