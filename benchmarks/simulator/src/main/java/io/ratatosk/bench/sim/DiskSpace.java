package io.ratatosk.bench.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The check a command makes before it writes data whose size the user chose (a cache size times a factor, a page
 * count, a generated graph's scale): a file system filled to the last byte harms everything else on the machine, so
 * what cannot fit is refused before its first byte.
 */
public final class DiskSpace {
    private DiskSpace() {
    }

    /**
     * @param place where the data will be written: a folder, or one still to be created below an existing one
     * @param bytes what will be written ({@link #bytes} for a product that may overflow)
     * @param what  what asked for that size, for the message ({@code "--cache 8g x --file-factor 10"})
     * @throws IllegalArgumentException naming {@code what}, the size and the space left, when it does not fit
     */
    public static void require(Path place, long bytes, String what) throws IOException {
        Path existing = place.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return; // nothing to ask; creating the folder will say what is wrong
        }
        long usable = Files.getFileStore(existing).getUsableSpace();
        if (bytes > usable) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s needs about %,d MiB, but %s has %,d MiB free",
                what, bytes >> 20, existing, usable >> 20));
        }
    }

    /** {@code count * unitBytes}, or {@link Long#MAX_VALUE} where that overflows. */
    public static long bytes(long count, long unitBytes) {
        return count > Long.MAX_VALUE / unitBytes ? Long.MAX_VALUE : count * unitBytes;
    }
}
