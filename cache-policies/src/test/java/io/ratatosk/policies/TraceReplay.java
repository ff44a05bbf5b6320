package io.ratatosk.policies;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

/**
 * The smallest single-threaded trace simulator that matches the refsim anchors' rules: empty frames
 * are filled in order 0..n-1, then every miss asks the policy for a victim with one background
 * sweep, after the policy's housekeeping, and the missed page is always admitted. The real simulator
 * lives in module benchmarks.
 */
final class TraceReplay {
    private TraceReplay() {
    }

    /** A gzip text trace: one integer key per line; blank lines and "*" checkpoints skipped. */
    static int[] read(Path gzipTrace) throws IOException {
        int[] keys = new int[1 << 16];
        int count = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(gzipTrace)), StandardCharsets.US_ASCII))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                line = line.trim();
                if (line.isEmpty() || line.contains("*")) {
                    continue;
                }
                if (count == keys.length) {
                    keys = Arrays.copyOf(keys, 2 * count);
                }
                keys[count++] = Integer.parseInt(line);
            }
        }
        return Arrays.copyOf(keys, count);
    }

    /**
     * Asks until the policy names a victim, as the page cache does: a pass that only decremented
     * usage counts returns nothing. Nothing is locked here, so every usage reaches the threshold
     * within {@link FrameDescriptor#MAX_USAGE} passes.
     */
    private static int nextVictim(EvictionPolicy policy, Sweep sweep) {
        policy.housekeeping();
        sweep.begin();
        for (int pass = 0; pass < 2 * (FrameDescriptor.MAX_USAGE + 1); pass++) {
            int frame = policy.nextVictim(sweep);
            if (frame != EvictionPolicy.NO_VICTIM) {
                return frame;
            }
        }
        throw new IllegalStateException(policy.name() + " found no victim in an unlocked cache");
    }

    /** Replays {@code keys} through {@code frameCount} frames and returns the number of hits. */
    static long hits(int[] keys, int frameCount, Function<FrameTable, EvictionPolicy> policyFor) {
        int[] frameOfKey = new int[Arrays.stream(keys).max().orElse(0) + 1];
        Arrays.fill(frameOfKey, -1);
        try (FrameTable frames = new FrameTable(frameCount)) {
            EvictionPolicy policy = policyFor.apply(frames);
            Sweep sweep = Sweep.background();
            int filled = 0;
            long hits = 0;
            for (int key : keys) {
                int frame = frameOfKey[key];
                if (frame >= 0) {
                    hits++;
                    policy.onHit(frame);
                    continue;
                }
                if (filled < frameCount) {
                    frame = filled++;
                } else {
                    frame = nextVictim(policy, sweep);
                    long evicted = frames.binding(frame);
                    frameOfKey[(int) PageKey.pageId(evicted)] = -1;
                    frames.setBinding(frame, PageKey.UNBOUND);
                    policy.onEvicted(frame, evicted);
                }
                long pageKey = PageKey.of(0, key);
                frames.setBinding(frame, pageKey);
                frameOfKey[key] = frame;
                policy.onFault(frame, pageKey);
            }
            policy.checkInvariants();
            return hits;
        }
    }
}
