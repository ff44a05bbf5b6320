package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link PageCache#map} accepts: regular files that hold data; everything else is refused saying what it is. */
class MapTargetTest {
    @TempDir
    Path dir;

    private static final PageCacheConfig CONFIG = PageCacheConfig.parse(Map.of("pagecache.memory", "1m",
        "pagecache.page_size", "8k", "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false"));

    /** A swapper factory that refuses every file, as a file system refusing O_DIRECT or a full disk would. */
    private static final PageSwapperFactory REFUSING = (file, fileId, filePageSize, create) -> {
        throw new IOException("injected: cannot open " + file);
    };

    private static PageCache open() {
        return PageCache.open(CONFIG);
    }

    /** A map that fails after it created the file deletes it: it once left a new empty file behind for every refused map. */
    @Test
    void aFailedMapDeletesTheFileItCreated() throws IOException {
        Path file = dir.resolve("new.db");
        try (PageCache cache = PageCache.open(CONFIG, REFUSING)) {
            IOException e = assertThrows(IOException.class, () -> cache.map(file, 8192));
            assertTrue(e.getMessage().startsWith("injected"), e.getMessage());
            assertFalse(Files.exists(file), "the refused map left the empty file it created");
        }
    }

    /** Only what the map created goes: a file that was there, empty or not, stays as it was. */
    @Test
    void aFailedMapLeavesAFileThatExistedAsItWas() throws IOException {
        Path empty = Files.createFile(dir.resolve("empty.db"));
        Path full = Files.write(dir.resolve("full.db"), new byte[] {1, 2, 3});
        try (PageCache cache = PageCache.open(CONFIG, REFUSING)) {
            assertThrows(IOException.class, () -> cache.map(empty, 8192));
            assertThrows(IOException.class, () -> cache.map(full, 8192, false));
        }
        assertTrue(Files.exists(empty));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(full));
    }

    /** Through a dangling link the map creates the link's target; a failed map deletes that target and keeps the link. */
    @Test
    void aFailedMapThroughADanglingLinkDeletesTheTargetItCreatedAndKeepsTheLink() throws IOException {
        Path target = dir.resolve("target.db");
        Path link = Files.createSymbolicLink(dir.resolve("link.db"), target.getFileName());
        try (PageCache cache = PageCache.open(CONFIG, REFUSING)) {
            assertThrows(IOException.class, () -> cache.map(link, 8192));
        }
        assertFalse(Files.exists(target), "the refused map left the target it created");
        assertTrue(Files.isSymbolicLink(link));
        try (PageCache cache = open(); PagedFile mapped = cache.map(link, 8192)) {
            assertEquals(target.toRealPath(), mapped.path()); // and a map that works creates it as before
        }
    }

    /**
     * A /proc file is a regular file whose fsync fails (EINVAL): it was mapped, and then every close of it and of the
     * cache threw ("forcing /proc/N/status to storage failed ... Invalid argument"), so the cache could never close.
     */
    @Test
    void aProcFileIsRefusedNamingItsFileSystem() throws IOException {
        Path status = Path.of("/proc/self/status");
        assumeTrue(Files.isRegularFile(status), "no /proc here");
        PageCache cache = open();
        try {
            IOException e = assertThrows(IOException.class, () -> cache.map(status, 8192, false).close());
            assertTrue(e.getMessage().contains(status.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("proc pseudo file system"), e.getMessage());
            assertEquals(0, cache.stats().faults());
        } finally {
            cache.close();
        }
    }

    /** A sysfs file takes a write as a command to the kernel: the cache's page write-back must never reach one. */
    @Test
    void aSysfsFileIsRefusedNamingItsFileSystem() throws IOException {
        Path sysfs = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        assumeTrue(Files.isRegularFile(sysfs) && "sysfs".equals(Files.getFileStore(sysfs).type()), "no sysfs file to try");
        try (PageCache cache = open()) {
            IOException e = assertThrows(IOException.class, () -> cache.map(sysfs, 8192, false).close());
            assertTrue(e.getMessage().contains("sysfs pseudo file system"), e.getMessage());
        }
    }

    @Test
    void aNamedPipeIsRefusedSayingWhatItIs() throws Exception {
        Path fifo = dir.resolve("pipe.db");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "no mkfifo here");
        try (PageCache cache = open()) {
            for (boolean create : new boolean[] {false, true}) {
                IOException e = assertThrows(IOException.class, () -> cache.map(fifo, 8192, create));
                assertTrue(e.getMessage().contains(fifo + " is a named pipe (FIFO), not a regular file"), e.getMessage());
            }
        }
    }

    @Test
    void aDeviceAndADirectoryAreRefusedSayingWhatTheyAre() throws IOException {
        try (PageCache cache = open()) {
            IOException folder = assertThrows(IOException.class, () -> cache.map(dir, 8192, false));
            assertTrue(folder.getMessage().contains(dir.toRealPath() + " is a directory"), folder.getMessage());
            Path devNull = Path.of("/dev/null");
            if (Files.exists(devNull)) {
                IOException device = assertThrows(IOException.class, () -> cache.map(devNull, 8192, false));
                assertTrue(device.getMessage().contains("/dev/null is a character device"), device.getMessage());
            }
        }
    }

    /**
     * A file renamed over the path between the map's look at it and the swapper's open: the swapper opened the new file,
     * which the registry filed under the old file's identity, so the next map of the path did not find it and mapped the
     * same file a second time (two caches of the same bytes: one's writes lost under the other's). Now the map sees the
     * path name another file after the open and refuses, mapping nothing; the next map maps the file once.
     */
    @Test
    void aFileReplacedWhileItIsBeingMappedIsNotMappedTwice() throws IOException {
        Path file = Files.write(dir.resolve("store.db"), new byte[8192]);
        Path replacement = Files.write(dir.resolve("store.db.tmp"), new byte[8192]);
        AtomicReference<Path> renameOverBeforeOpen = new AtomicReference<>(replacement);
        PageSwapperFactory files = new FileSwapperFactory();
        PageSwapperFactory racing = (path, fileId, filePageSize, create) -> {
            Path from = renameOverBeforeOpen.getAndSet(null);
            if (from != null) {
                Files.move(from, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return files.create(path, fileId, filePageSize, create);
        };
        try (PageCache cache = PageCache.open(CONFIG, racing)) {
            IOException e = assertThrows(IOException.class, () -> cache.map(file, 8192).close());
            assertTrue(e.getMessage().contains(file.toRealPath() + ": the file at this path was deleted or replaced"),
                e.getMessage());
            assertEquals(0, cache.fileRegistry().mapped().size());
            try (PagedFile first = cache.map(file, 8192); PagedFile second = cache.map(file, 8192)) {
                assertSame(first, second);
            }
        }
    }

    /**
     * The file a failed map created was deleted by someone else meanwhile, and another empty file created in its place:
     * the failed map leaves that file alone. On ext4, which hands a freed inode to the next file at once, the new file had
     * the created one's file key, so the map took it for its own and deleted it. The map now holds the file it created
     * open until it is done with it, so that its inode cannot go to another file meanwhile.
     */
    @Test
    void aFailedMapLeavesAFileThatTookTheCreatedFilesPlace() throws IOException {
        Path file = dir.resolve("reused.db");
        PageSwapperFactory replacesThenFails = (f, fileId, filePageSize, create) -> {
            Files.delete(f);
            Files.createFile(f); // another process's new file, empty as yet
            throw new IOException("injected: cannot open " + f);
        };
        try (PageCache cache = PageCache.open(CONFIG, replacesThenFails)) {
            IOException e = assertThrows(IOException.class, () -> cache.map(file, 8192));
            assertTrue(e.getMessage().startsWith("injected"), e.getMessage());
        }
        assertTrue(Files.exists(file), "the failed map deleted the file that took the place of the one it created");
    }

    /**
     * A file the process may not open for reading and writing is refused saying so: the JDK's AccessDeniedException
     * carries the bare path as its whole message (EACCES, as for a file of another user, or a folder that takes no new
     * file), so the map failed with "/data/a.db" and nothing else. Simulated by an opener that throws as the JDK does,
     * since this test may run as root.
     */
    @Test
    void aFileThatMayNotBeOpenedIsRefusedSayingPermissionDenied() throws IOException {
        Path file = Files.createFile(dir.resolve("locked.db"));
        PageSwapperFactory denied = new FileSwapperFactory((path, create) -> {
            throw new java.nio.file.AccessDeniedException(path.toString()); // what FileChannel.open throws for EACCES
        });
        try (PageCache cache = PageCache.open(CONFIG, denied)) {
            java.nio.file.AccessDeniedException e =
                assertThrows(java.nio.file.AccessDeniedException.class, () -> cache.map(file, 8192));
            assertTrue(e.getMessage().contains(file.toRealPath().toString()) && e.getMessage().contains("permission denied"),
                e.getMessage());
        }
    }

    /**
     * A file to be created in a folder that does not exist is refused saying so: the JDK's NoSuchFileException carries
     * the bare path as its whole message, so the map failed with "/data/db/a.db" and nothing else, which reads as
     * though the file itself were missing (with create=true, the default).
     */
    @Test
    void aFileInAMissingFolderIsRefusedNamingTheFolder() throws IOException {
        Path folder = dir.resolve("absent");
        Path file = folder.resolve("a.db");
        try (PageCache cache = open()) {
            java.nio.file.NoSuchFileException e =
                assertThrows(java.nio.file.NoSuchFileException.class, () -> cache.map(file, 8192));
            assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("folder " + folder)
                && e.getMessage().contains("does not exist"), e.getMessage());
        }
        assertFalse(Files.exists(folder), "nothing created");
    }
}
