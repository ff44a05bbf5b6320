package io.ratatosk.bench.sim;

import io.ratatosk.core.PageKey;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a page trace (format {@code pagetrace}, see docs/simulator.md): every requested
 * {@link PageKey} as 8 big-endian bytes, back to back, gzip-compressed when the file name ends in
 * {@code .gz}. Single-threaded: a recorder with several threads funnels them through one writer.
 */
public final class PageTraceWriter implements AutoCloseable {
    private final OutputStream out;
    private final byte[] buffer = new byte[1 << 16];
    private int fill;

    public PageTraceWriter(Path file) throws IOException {
        checkName("the page trace", file);
        Path folder = file.toAbsolutePath().getParent();
        if (folder != null) {
            Files.createDirectories(folder);
        }
        OutputStream raw = Files.newOutputStream(file);
        // The ending as checkName reads it, in any case: a .GZ passed the check and was written plain under a gzip name
        this.out = ".gz".equals(OutputFile.compressionEnding(file))
            ? new GZIPOutputStream(raw, 1 << 16) : new BufferedOutputStream(raw, 1 << 16);
    }

    /**
     * Refuses a name that says another compression than the writer's: it gzips a {@code .gz} and writes anything else
     * plain, so a {@code trace.pagetrace.zst} held plain bytes under a zstd name (zstd -d refused it; the simulator,
     * which reads the bytes' magic, took it).
     *
     * @param option what named the file, for the message
     */
    public static void checkName(String option, Path file) {
        String other = OutputFile.compressionEnding(file);
        if (other != null && !other.equals(".gz")) {
            throw new IllegalArgumentException(option + " " + file + ": a page trace is written gzip-compressed"
                + " (.gz) or plain, not " + other + "; name it .pagetrace.gz or .pagetrace");
        }
    }

    /** Appends one request; {@code pageKey} must be a bound {@link PageKey}: never 0, and naming a file. */
    public void append(long pageKey) throws IOException {
        if (pageKey == PageKey.UNBOUND) {
            throw new IllegalArgumentException("a page trace holds bound page keys only: pageKey=0");
        }
        if (PageKey.fileId(pageKey) < 0) {
            // the reader refuses it: a trace written with one could not be read back
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "a page trace holds page keys only, and"
                + " 0x%016x names no file (its top %d bits, file id + 1, are 0)", pageKey, PageKey.FILE_ID_BITS));
        }
        if (fill == buffer.length) {
            out.write(buffer, 0, fill);
            fill = 0;
        }
        for (int shift = 56; shift >= 0; shift -= 8) {
            buffer[fill++] = (byte) (pageKey >>> shift);
        }
    }

    @Override
    public void close() throws IOException {
        try (out) {
            out.write(buffer, 0, fill);
            fill = 0;
        }
    }
}
