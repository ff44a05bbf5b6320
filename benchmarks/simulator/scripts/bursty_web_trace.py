#!/usr/bin/env python3
"""A synthetic web-like trace: Zipf popularity that drifts, one-hit wonders, and short bursts of re-reads.

A stand-in for the web traces the Caffeine anchors list and this repository does not have (web07: 76,118 requests,
20,484 keys; web12), to see how best-of's switching rules treat a mix whose best policy is not its first expert. It
does NOT reproduce those traces' ranking (there S3-FIFO leads CLOCK-Pro by 1 to 3 points and LRU trails both):
with bursts, muninn and LRU lead CLOCK-Pro at small sizes, and W-TinyLFU or S3-FIFO at larger ones. Each request
is, with probability --one-hit, a key never seen before (kept for bursts with probability --burst); with probability
--burst, a key from the last 200 burst candidates; else a key drawn from a Zipf(--alpha) law over --catalog keys,
whose ranks are shuffled a little every 5,000 requests (a fiftieth of the catalog swapped). docs/policies.md shows
what best-of, muninn and the other experts get on it.

Usage: bursty_web_trace.py OUT.trace.gz [--requests N] [--catalog N] [--alpha A] [--one-hit P] [--burst P] [--seed S]
Then: ./bench sim --format lirs --policies default,muninn,clock-pro,s3-fifo --sizes 500,1000,2500,5000 OUT.trace.gz
"""
import argparse
import bisect
import gzip
import itertools
import random

RECENT = 200
DRIFT_EVERY = 5_000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the trace to write (LIRS format: one key per line, gzip)")
    parser.add_argument("--requests", type=int, default=76_000, help="requests (default 76,000, about web07's)")
    parser.add_argument("--catalog", type=int, default=30_000, help="keys of the Zipf law (default 30,000)")
    parser.add_argument("--alpha", type=float, default=0.7, help="Zipf exponent (default 0.7)")
    parser.add_argument("--one-hit", type=float, default=0.2, help="share of requests for a new key (default 0.2)")
    parser.add_argument("--burst", type=float, default=0.15, help="share of requests re-reading a recent key (default 0.15)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args()
    if args.requests < 1 or args.catalog < 50 or args.alpha <= 0 or not 0 <= args.one_hit + args.burst <= 1 \
            or args.one_hit < 0 or args.burst < 0:
        parser.error("need requests >= 1, catalog >= 50, alpha > 0, one-hit and burst >= 0 with a sum of at most 1")
    rng = random.Random(args.seed)
    cumulative = list(itertools.accumulate(rank ** -args.alpha for rank in range(1, args.catalog + 1)))
    total = cumulative[-1]
    key_of_rank = list(range(args.catalog))
    rng.shuffle(key_of_rank)
    requests = []
    next_new = 10 ** 7  # new keys above the catalog's
    recent = []
    while len(requests) < args.requests:
        u = rng.random()
        if u < args.one_hit:
            next_new += 1
            key = next_new
            if rng.random() < args.burst:
                recent.append(key)
        elif u < args.one_hit + args.burst and recent:
            key = recent[rng.randrange(len(recent))]
        else:
            key = key_of_rank[bisect.bisect_left(cumulative, rng.random() * total)]
            if rng.random() < 0.3:
                recent.append(key)
        if len(recent) > RECENT:
            recent = recent[-RECENT:]
        requests.append(key)
        if len(requests) % DRIFT_EVERY == 0:
            for _ in range(args.catalog // 50):
                i, j = rng.randrange(args.catalog), rng.randrange(args.catalog)
                key_of_rank[i], key_of_rank[j] = key_of_rank[j], key_of_rank[i]
    with gzip.open(args.out, "wt") as out:
        out.write("\n".join(map(str, requests)) + "\n")
    print(f"{args.out}: {len(requests):,} requests, {len(set(requests)):,} keys")


if __name__ == "__main__":
    main()
