package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The temporary file both sides map: {@code pages} pages of {@value #PAGE_SIZE} bytes, every long
 * slot holding {@link #expected(long, int)}, so a benchmark can check each value it reads and a
 * write benchmark can write values that keep the file checkable. Written in native byte order,
 * which is how both caches read a long from a page.
 */
public final class BenchFile implements AutoCloseable {
    public static final int PAGE_SIZE = 8192;
    /** Long slots per page. */
    public static final int SLOTS = PAGE_SIZE / Long.BYTES;

    private final Path path;
    private final long pages;

    private BenchFile(Path path, long pages) {
        this.path = path;
        this.pages = pages;
    }

    /** Creates the file in the default temporary directory. */
    public static BenchFile create(long pages) throws IOException {
        if (pages <= 0) {
            throw new IllegalArgumentException("pages must be positive: pages=" + pages);
        }
        Path path = Files.createTempFile("ratatosk-jmh-", ".pages");
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
            int pagesPerChunk = 128;
            ByteBuffer chunk = ByteBuffer.allocateDirect(pagesPerChunk * PAGE_SIZE).order(ByteOrder.nativeOrder());
            for (long first = 0; first < pages; first += pagesPerChunk) {
                chunk.clear();
                long end = Math.min(pages, first + pagesPerChunk);
                for (long page = first; page < end; page++) {
                    for (int slot = 0; slot < SLOTS; slot++) {
                        chunk.putLong(expected(page, slot));
                    }
                }
                chunk.flip();
                long position = first * PAGE_SIZE;
                while (chunk.hasRemaining()) {
                    position += ch.write(chunk, position);
                }
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(path);
            throw e;
        }
        return new BenchFile(path, pages);
    }

    /** The value in long slot {@code slot} of page {@code pageId}; unique per slot, never 0 but at page 0 slot 0. */
    public static long expected(long pageId, int slot) {
        return (pageId << 10) | slot;
    }

    public Path path() {
        return path;
    }

    public long pages() {
        return pages;
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(path);
    }
}
