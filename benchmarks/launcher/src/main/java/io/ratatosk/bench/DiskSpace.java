package io.ratatosk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The check a command makes before it writes a benchmark file whose size the user chose (a cache size times a
 * factor, a page count): a file system filled to the last byte harms everything else on the machine, so a file
 * that cannot fit is refused before its first byte.
 */
public final class DiskSpace {
    private DiskSpace() {
    }

    /**
     * @param folder    where the file will be written (it exists)
     * @param pages     the file's pages
     * @param pageBytes bytes per page
     * @param what      what asked for that size, for the message ({@code "--cache 8g x --file-factor 10"})
     * @throws IllegalArgumentException naming the size, the space left and {@code what}, when it does not fit
     */
    public static void require(Path folder, long pages, int pageBytes, String what) throws IOException {
        long usable = Files.getFileStore(folder).getUsableSpace();
        long bytes = pages > Long.MAX_VALUE / pageBytes ? Long.MAX_VALUE : pages * pageBytes;
        if (bytes > usable) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                "%s needs a file of %,d MiB, but %s has %,d MiB free", what, bytes >> 20, folder, usable >> 20));
        }
    }
}
