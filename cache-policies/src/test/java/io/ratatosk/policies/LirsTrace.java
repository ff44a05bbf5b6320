package io.ratatosk.policies;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * Reads a LIRS trace as the reference tests replay it through {@link io.ratatosk.policies.replay.PolicyReplay}:
 * the keys as they stand (the traces' keys are small), not renumbered. The simulator's reader lives in
 * bench-simulator, which this module's tests cannot reach.
 */
final class LirsTrace {
    private LirsTrace() {
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
}
