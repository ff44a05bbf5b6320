package io.ratatosk.pagecache.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.Waits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A profile replaced while it is read is read whole, as the old one or the new one: two caches mapping one file (in two
 * processes) each rename a whole profile over it, at the unmap and every profile interval, while the other may be
 * reading it at its map. The read once took the profile's length from the path and then opened the path, so a rename
 * in between had it read the new file with the old one's length: a whole profile was refused as "truncated or corrupt:
 * checksum mismatch" (or "unreadable: EOFException"), and its file not reheated, with a warning sending the operator
 * after a corruption there never was.
 */
class ProfileReplacedWhileReadTest {
    @TempDir
    Path dir;

    @Test
    void aProfileRenamedOverWhileReadIsReadAsTheOldOrTheNew() throws Exception {
        Path file = dir.resolve("store.db");
        Path target = ResidentProfile.pathFor(file);
        long[] few = {1, 2, 3};
        long[] many = new long[5_000];
        Arrays.setAll(many, i -> 2L * i);
        byte[] small = new ResidentProfile(8192, 10_000, "k", few).encode();
        byte[] large = new ResidentProfile(8192, 10_000, "k", many).encode();
        Files.write(target, small);

        // What each writer does, without the force: a whole file of its own renamed over the profile.
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                for (long n = 0; !stop.get(); n++) {
                    Path temp = dir.resolve("store.db.cacheprof." + n + ".tmp");
                    Files.write(temp, n % 2 == 0 ? large : small);
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (Throwable t) {
                writerFailure.set(t);
            }
        }, "profile-renamer");
        writer.start();
        List<String> refusals = new ArrayList<>();
        int reads = 0;
        try {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() - end < 0 && refusals.size() < 5) {
                try {
                    ResidentProfile read = ResidentProfile.readFor(file);
                    assertTrue(read.size() == few.length || read.size() == many.length,
                        "the profile read is one of the two written: " + read.size() + " pages");
                } catch (ProfileException e) {
                    refusals.add(e.getMessage());
                }
                reads++;
            }
        } finally {
            stop.set(true);
            Waits.join(writer, "the profile renamer"); // a renamer still running would go on renaming after the checks
        }
        assertEquals(null, writerFailure.get(), "the renames went on");
        assertEquals(List.of(), refusals, "whole profiles refused, of " + reads + " reads");
    }
}
