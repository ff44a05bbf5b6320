package io.ratatosk.pagecache.warmup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What writes of a profile that died before their rename left behind is removed where it is clearly theirs, and nothing
 * else: by every write (a file stays mapped for a long run, and the map after a crash comes before the leftover is old
 * enough to go), and by the map, also under the random names earlier versions wrote.
 */
class DeadProfileWriteRemovalTest {
    private static final FileTime LONG_AGO = FileTime.from(Instant.now().minus(Duration.ofDays(1)));

    @TempDir
    Path dir;

    private static ResidentProfile sample() {
        return new ResidentProfile(4096, 200, "(dev=1,ino=2)", new long[] {0, 1, 2, 5, 100});
    }

    private Path old(String name, byte[] bytes) throws Exception {
        return Files.setLastModifiedTime(Files.write(dir.resolve(name), bytes), LONG_AGO);
    }

    /**
     * The map after a crash comes soon after it, when the dead write's file is younger than an hour and is left; the write
     * of the next profile, every profile interval for as long as the file stays mapped, found it only when all 16 names
     * were taken, so it stayed for the whole run (weeks, for a server's store).
     */
    @Test
    void aWriteRemovesWhatWritesThatDiedLeftThoughNamesAreFree() throws Exception {
        Path file = dir.resolve("data.db");
        byte[] profile = sample().encode();
        Path cut = old("data.db.cacheprof.4.tmp", Arrays.copyOf(profile, 20));
        Path empty = old("data.db.cacheprof.9.tmp", new byte[0]);
        Path live = Files.write(dir.resolve("data.db.cacheprof.2.tmp"), Arrays.copyOf(profile, 20));
        Path notOurs = old("data.db.cacheprof.6.tmp", new byte[4096]);

        sample().writeFor(file);

        assertFalse(Files.exists(cut), "a write cut short long ago is removed");
        assertFalse(Files.exists(empty), "a write that died before its first byte long ago is removed");
        assertTrue(Files.exists(live), "a recent write may be live: left");
        assertTrue(Files.exists(notOurs), "a file that no profile's write begins as is left");
        assertArrayEquals(sample().pages(), ResidentProfile.readFor(file).pages());
    }

    /**
     * Earlier versions named a write's temporary file {@code <profile>.<random hex>.tmp}: no one removed what a dead one
     * left. The first map in a folder removes those that are clearly a dead write's (a regular file of exactly such a
     * name, any profile's, untouched for an hour, holding nothing or the start of a profile), and leaves every other file,
     * however like one its name is.
     */
    @Test
    void theMapRemovesWhatDeadWritesOfEarlierVersionsLeftAndNothingElse() throws Exception {
        Path file = dir.resolve("data.db");
        sample().writeFor(file);
        byte[] profile = sample().encode();
        byte[] cutProfile = Arrays.copyOf(profile, 20);
        Path cut = old("data.db.cacheprof.7f3a91c2.tmp", cutProfile);
        Path empty = old("data.db.cacheprof.5.tmp", new byte[0]);
        Path whole = old("data.db.cacheprof.e0.tmp", profile);
        Path anotherFiles = old("other.db.cacheprof.abc.tmp", cutProfile);
        List<Path> left = List.of(
            Files.write(dir.resolve("data.db.cacheprof.1b2c3d4e.tmp"), cutProfile), // recent: may be live
            old("data.db.cacheprof.c0ffee.tmp", new byte[4096]), // zeros: no profile's write
            old("data.db.cacheprof.c0ffee11.tmp", "a store's notes".getBytes()), // no profile's either
            old("data.db.cacheprof.C0FFEE.tmp", cutProfile), // upper case: no name a write took
            old("data.db.cacheprof.123456789.tmp", cutProfile), // nine digits: more than an int's
            old("data.db.cacheprof.notes.tmp", cutProfile), // not hex
            old("data.db.cacheprof..tmp", cutProfile),
            old("data.db.cacheprof.tmp", new byte[0]), // the first version's fixed name: a store may own it
            old("data.db.cacheprof.abc.tmp.bak", cutProfile),
            old("other.db.cacheprof.abcd.tmp", new byte[4096]), // another file's name, no profile's write
            old(".cacheprof.abc.tmp", cutProfile)); // no file's profile
        Path folder = Files.setLastModifiedTime(Files.createDirectory(dir.resolve("data.db.cacheprof.d1.tmp")), LONG_AGO);
        Path linked = old("elsewhere", cutProfile);
        Path link = Files.createSymbolicLink(dir.resolve("data.db.cacheprof.abcd.tmp"), linked);

        assertArrayEquals(sample().pages(), ResidentProfile.readFor(file).pages());

        assertFalse(Files.exists(cut), "an earlier version's write cut short long ago is removed");
        assertFalse(Files.exists(empty), "a write that died before its first byte long ago is removed");
        assertFalse(Files.exists(whole), "a write that died before its rename long ago is removed");
        assertFalse(Files.exists(anotherFiles), "another file's profile's dead write is removed too");
        for (Path path : left) {
            assertTrue(Files.exists(path), path + " is left");
        }
        assertTrue(Files.isDirectory(folder), "a folder is left");
        assertTrue(Files.isSymbolicLink(link) && Files.exists(linked), "a link and what it links to are left");
        assertTrue(Files.exists(ResidentProfile.pathFor(file)), "the profile is left");
    }
}
