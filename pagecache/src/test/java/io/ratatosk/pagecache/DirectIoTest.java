package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.nio.file.ExtendedOpenOption;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.pagecache.internal.DirectIo;
import io.ratatosk.pagecache.internal.FileChannelOpener;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pagecache.io=direct}: pages written through the cache reach the file and come back after a
 * reopen, the file is really open with O_DIRECT, and a file that cannot be read directly is not mapped.
 * Skipped, saying why, where the file system of the temporary folder refuses O_DIRECT.
 */
class DirectIoTest {
    /** Linux's O_DIRECT flag as /proc/self/fdinfo shows it (octal, x86_64 and aarch64 differ: both listed). */
    private static final List<Integer> O_DIRECT_BITS = List.of(040000, 0200000);

    @TempDir
    Path dir;
    private int blockSize;

    @BeforeEach
    void requireDirectIo() throws IOException {
        Path probe = dir.resolve("probe");
        Files.write(probe, new byte[0]);
        try (FileChannel ignored = FileChannel.open(probe, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            blockSize = (int) Files.getFileStore(probe).getBlockSize();
        } catch (IOException | UnsupportedOperationException e) {
            assumeTrue(false, "the file system of " + dir + " (" + Files.getFileStore(dir).type()
                + ") refuses O_DIRECT: " + e);
        }
        assumeTrue(blockSize <= 8192, "block size " + blockSize + " is above the 8k page size these tests use");
    }

    private static PageCache open(Map<String, String> extra) {
        Map<String, String> flags = new HashMap<>(Map.of("pagecache.memory", "1m", "pagecache.page_size", "8k",
            "pagecache.io", "direct", "pagecache.jmx.enabled", "false"));
        flags.put("pagecache.warmup.enabled", "false"); // every read below must fault: no reheat from the last run
        flags.putAll(extra);
        return PageCache.open(PageCacheConfig.parse(flags));
    }

    @Test
    void pagesWrittenFlushedAndEvictedComeBackAfterReopen() throws IOException {
        Path file = dir.resolve("direct.db");
        int pages = 300; // more than the 128 frames of 1m: most are written out by eviction, the rest by flush and close
        try (PageCache cache = open(Map.of()); PagedFile paged = cache.map(file, 8192)) {
            try (PageCursor c = paged.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                for (int p = 0; p < pages; p++) {
                    assertTrue(c.next(p));
                    for (int off = 0; off < 8192; off += 8) {
                        c.putLong(off, p * 1_000_003L + off);
                    }
                }
            }
            paged.flush();
        }
        assertEquals(pages * 8192L, Files.size(file));
        try (PageCache cache = open(Map.of()); PagedFile paged = cache.map(file, 8192, false)) {
            try (PageCursor c = paged.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                for (int p = pages - 1; p >= 0; p--) {
                    assertTrue(c.next(p));
                    long first;
                    long last;
                    do {
                        first = c.getLong(0);
                        last = c.getLong(8184);
                    } while (c.shouldRetry());
                    assertEquals(p * 1_000_003L, first, "page " + p);
                    assertEquals(p * 1_000_003L + 8184, last, "page " + p);
                }
            }
            assertTrue(cache.stats().faults() >= pages);
        }
    }

    @Test
    void aFileWhoseSizeIsNoBlockMultipleReadsUpToItsEndThenZeros() throws IOException {
        Path file = dir.resolve("odd.db");
        byte[] content = new byte[8192 + 100];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + 7);
        }
        Files.write(file, content);
        try (PageCache cache = open(Map.of()); PagedFile paged = cache.map(file, 8192, false)) {
            assertEquals(1, paged.getLastPageId());
            try (PageCursor c = paged.io(1, PagedFile.PF_SHARED_READ_LOCK)) {
                assertTrue(c.next());
                for (int i = 0; i < 200; i++) {
                    assertEquals(i < 100 ? content[8192 + i] : 0, c.getByte(i), "byte " + i + " of page 1");
                }
            }
        }
    }

    @Test
    void theMappedFileIsOpenWithODirect() throws IOException {
        Path fdDir = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(fdDir), "no /proc/self/fd to look at open descriptors");
        Path file = dir.resolve("flags.db");
        try (PageCache cache = open(Map.of()); PagedFile paged = cache.map(file, 8192)) {
            Path real = paged.path();
            boolean foundDirect = false;
            try (Stream<Path> fds = Files.list(fdDir)) {
                for (Path fd : fds.toList()) {
                    try {
                        if (!Files.readSymbolicLink(fd).equals(real)) {
                            continue;
                        }
                        String info = Files.readString(Path.of("/proc/self/fdinfo/" + fd.getFileName()));
                        String flags = info.lines().filter(l -> l.startsWith("flags:")).findFirst().orElseThrow();
                        int bits = Integer.parseInt(flags.substring("flags:".length()).strip(), 8);
                        foundDirect |= O_DIRECT_BITS.stream().anyMatch(bit -> (bits & bit) != 0);
                    } catch (IOException gone) {
                        // a descriptor closed while we listed them
                    }
                }
            }
            assertTrue(foundDirect, "no descriptor of " + real + " has O_DIRECT set");
        }
    }

    @Test
    void aPageSizeThatIsNoBlockMultipleIsRefusedNamingTheFileAndTheFlag() throws IOException {
        assumeTrue(blockSize > 512, "a block size of 512 divides every page size");
        Path file = dir.resolve("small-pages.db");
        try (PageCache cache = open(Map.of())) {
            IOException e = assertThrows(IOException.class, () -> cache.map(file, 512));
            assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
            assertTrue(e.getMessage().contains("pagecache.io=direct"), e.getMessage());
            assertTrue(e.getMessage().contains("filePageSize=512"), e.getMessage());
        }
        assertFalse(Files.exists(file), "the refused map left the empty file it created");
    }

    @Test
    void aRefusedDirectOpenFailsTheMapNamingTheFileAndTheFlag() throws IOException {
        Path file = dir.resolve("refused.db");
        // What Linux answers for O_DIRECT on a file system without it (tmpfs before Linux 6.6, say).
        FileChannelOpener refusing = DirectIo.refusalsExplained((path, create) -> {
            throw new FileSystemException(path.toString(), null, "Invalid argument");
        });
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                "pagecache.io", "direct", "pagecache.jmx.enabled", "false")), new FileSwapperFactory(refusing, true))) {
            IOException e = assertThrows(IOException.class, () -> cache.map(file, 8192));
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("pagecache.io=direct"), e.getMessage());
            assertTrue(cache.config().toString().contains("pagecache.io=direct"));
        }
    }

    /**
     * A file that cannot be opened for writing at all (read-only permissions; as root, the immutable attribute) is
     * refused as pagecache.io=buffered refuses it. It was refused as a file system that does not do direct IO ("the
     * file system (ext4) or platform refuses direct IO (O_DIRECT); use pagecache.io=buffered or another file
     * system"), which sent the operator after the wrong flag: the file, not O_DIRECT, was the trouble.
     */
    @Test
    void aFileThatCannotBeOpenedForWritingIsRefusedForThatAndNotForDirectIo() throws Exception {
        Path file = dir.resolve("read-only.db");
        Files.write(file, new byte[8192]);
        boolean immutable = false;
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
            if (writable(file)) { // root ignores permissions, not the immutable attribute
                Process chattr = new ProcessBuilder("chattr", "+i", file.toString()).redirectErrorStream(true).start();
                immutable = chattr.waitFor(10, TimeUnit.SECONDS) && chattr.exitValue() == 0;
            }
            assumeTrue(!writable(file), "cannot make " + file + " unwritable here");
            IOException buffered;
            try (PageCache cache = PageCache.open(PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
                    "pagecache.jmx.enabled", "false")))) {
                buffered = assertThrows(IOException.class, () -> cache.map(file, 8192, false));
            }
            try (PageCache cache = open(Map.of())) {
                IOException direct = assertThrows(IOException.class, () -> cache.map(file, 8192, false));
                assertFalse(direct.getMessage().contains("refuses direct IO"), direct.getMessage());
                assertEquals(buffered.getClass(), direct.getClass());
                assertEquals(buffered.getMessage(), direct.getMessage());
                assertEquals(0, cache.stats().faults());
            }
        } finally {
            if (immutable) {
                new ProcessBuilder("chattr", "-i", file.toString()).start().waitFor(10, TimeUnit.SECONDS);
            }
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    private static boolean writable(Path file) {
        try (FileChannel ignored = FileChannel.open(file, StandardOpenOption.WRITE)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void aFileSystemThatRefusesODirectFailsTheMapNamingTheFileAndTheFlag() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm), "no writable /dev/shm (tmpfs) to try");
        Path file = Files.createTempFile(shm, "ratatosk-direct", ".db");
        try {
            boolean refused;
            try (FileChannel ignored = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
                refused = false;
            } catch (IOException | UnsupportedOperationException e) {
                refused = true;
            }
            assumeTrue(refused, "/dev/shm accepts O_DIRECT here");
            try (PageCache cache = open(Map.of())) {
                IOException e = assertThrows(IOException.class, () -> cache.map(file, 8192));
                assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
                assertTrue(e.getMessage().contains("pagecache.io=direct"), e.getMessage());
                assertEquals(0, cache.stats().faults());
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * The factory's {@code create} with {@code create=true} creates a missing file for direct IO too, as it does for
     * buffered IO: it once read the block size off the missing file's store and refused it ("the block size of its file
     * store is unknown: NoSuchFileException"), blaming direct IO for a file that was only not there yet.
     */
    @Test
    void theFactoryCreatesAMissingFileForDirectIo() throws IOException {
        Path file = dir.resolve("new.db");
        try (FileSwapperFactory factory = new FileSwapperFactory(true);
             PageSwapper swapper = factory.create(file, 0, 8192, true)) {
            assertTrue(Files.isRegularFile(file));
            assertEquals(0, swapper.pageCount());
            // Without create, a missing file is said to be missing, not blamed on direct IO
            Path absent = dir.resolve("absent.db");
            assertThrows(java.nio.file.NoSuchFileException.class, () -> factory.create(absent, 1, 8192, false));
            assertFalse(Files.exists(absent));
        }
    }

    /**
     * A file to create in a folder that does not exist: said so, naming the folder, as without direct IO; the folder's
     * store was asked for its block size, and the map refused with 'the block size of its file store is unknown:
     * NoSuchFileException', blaming direct IO.
     */
    @Test
    void theFactoryRefusesAFileInAMissingFolderSayingTheFolderIsMissing() throws IOException {
        Path folder = dir.resolve("missing");
        Path file = folder.resolve("new.db");
        try (FileSwapperFactory factory = new FileSwapperFactory(true)) {
            java.nio.file.NoSuchFileException e = assertThrows(java.nio.file.NoSuchFileException.class,
                () -> factory.create(file, 0, 8192, true));
            assertTrue(e.getMessage().contains(folder.toString()) && e.getMessage().contains("does not exist")
                && !e.getMessage().contains("direct"), e.getMessage());
        }
        assertFalse(Files.exists(folder));
    }
}
