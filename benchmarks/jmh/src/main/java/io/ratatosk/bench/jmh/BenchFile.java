package io.ratatosk.bench.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import io.ratatosk.bench.sim.ScratchFiles;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The temporary file both sides map: {@code pages} pages of {@value #PAGE_SIZE} bytes, every long
 * slot holding {@link #expected(long, int)}, so a benchmark can check each value it reads and a
 * write benchmark can write values that keep the file checkable. Written in native byte order,
 * which is how both caches read a long from a page. It lies in a {@link ScratchFiles} folder of its own, which goes
 * also when the JVM ends without the trial's teardown: a fork stopped with Ctrl-C, or one whose later setup failed
 * (JMH then runs no teardown), left its file, 2 to 128 MiB, in the temporary folder for good.
 */
public final class BenchFile implements AutoCloseable {
    public static final int PAGE_SIZE = 8192;
    /** Long slots per page. */
    public static final int SLOTS = PAGE_SIZE / Long.BYTES;

    private final ScratchFiles folder;
    private final Path path;
    private final long pages;

    private BenchFile(ScratchFiles folder, Path path, long pages) {
        this.folder = folder;
        this.path = path;
        this.pages = pages;
    }

    /** Creates the file in a new folder in the default temporary directory. */
    public static BenchFile create(long pages) throws IOException {
        if (pages <= 0) {
            throw new IllegalArgumentException("pages must be positive: pages=" + pages);
        }
        ScratchFiles folder = ScratchFiles.create(null, "ratatosk-jmh-");
        Path path = folder.folder().resolve("bench.pages");
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
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
            folder.close();
            throw e;
        }
        return new BenchFile(folder, path, pages);
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
        folder.close();
    }
}
