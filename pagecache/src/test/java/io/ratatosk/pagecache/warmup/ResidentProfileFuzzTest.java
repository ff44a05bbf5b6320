package io.ratatosk.pagecache.warmup;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged profiles, at random from a printed seed ({@code -Dratatosk.fuzz.seed=...} repeats a run): truncated, bytes
 * flipped, spliced or random, half of them with the checksum made right again so that the parser behind it is reached.
 * Each is either refused with a {@link ProfileException} or read as a profile the format could have written (page ids
 * increasing, none negative, no more than asked for); nothing else is thrown, and no read takes a second of its
 * thread's CPU.
 */
class ResidentProfileFuzzTest {
    private static final long BUDGET_NANOS = 3_000_000_000L;
    private static final int MAX_PAGES = 64;

    @TempDir
    Path dir;

    @Test
    void aDamagedProfileIsRefusedOrReadAsAProfile() throws Exception {
        long seed = Long.getLong("ratatosk.fuzz.seed", System.nanoTime());
        System.out.println("ResidentProfileFuzzTest seed: " + seed + " (-Dratatosk.fuzz.seed=" + seed + " repeats it)");
        SplittableRandom random = new SplittableRandom(seed);
        Path file = dir.resolve("data.db");
        Path profilePath = ResidentProfile.pathFor(file);
        long deadline = System.nanoTime() + BUDGET_NANOS;
        int cases = 0;
        // CPU time, not wall time: a read that loops over a damaged count burns CPU, while a loaded machine or a GC
        // pause only stretches the wall clock (a second of wall time was the bound before)
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpu = mx.isCurrentThreadCpuTimeSupported();
        LongSupplier clock = cpu ? mx::getCurrentThreadCpuTime : System::nanoTime;
        long mostNanos = 0;
        while (System.nanoTime() - deadline < 0) {
            byte[] bytes = damage(random, validProfile(random).encode());
            Files.write(profilePath, bytes);
            long start = clock.getAsLong();
            try {
                ResidentProfile profile = ResidentProfile.readFor(file, MAX_PAGES);
                checkReadable(profile, seed, cases);
            } catch (ProfileException refused) {
                assertTrue(refused.getMessage() != null && !refused.getMessage().isEmpty(), "a refusal says why");
            } catch (Throwable t) {
                fail("case " + cases + " of seed " + seed + " (" + bytes.length + " bytes: " + hex(bytes) + ") threw "
                    + t, t);
            }
            long took = clock.getAsLong() - start;
            assertTrue(took < 1_000_000_000L, "case " + cases + " of seed " + seed + " took " + took / 1_000_000 + " ms"
                + (cpu ? " of CPU" : ""));
            mostNanos = Math.max(mostNanos, took);
            cases++;
        }
        System.out.println("ResidentProfileFuzzTest: " + cases + " damaged profiles, the slowest read " + mostNanos / 1000
            + " us" + (cpu ? " of CPU" : ""));
        Files.deleteIfExists(profilePath);
    }

    private static void checkReadable(ResidentProfile profile, long seed, int index) {
        long[] pages = profile.pages();
        assertTrue(pages.length <= MAX_PAGES, "case " + index + " of seed " + seed + ": kept " + pages.length + " pages");
        for (int i = 0; i < pages.length; i++) {
            assertTrue(pages[i] >= 0 && (i == 0 || pages[i] > pages[i - 1]),
                "case " + index + " of seed " + seed + ": page ids " + Arrays.toString(pages));
        }
    }

    private static ResidentProfile validProfile(SplittableRandom random) {
        int count = random.nextInt(4) == 0 ? random.nextInt(2000) : random.nextInt(20);
        long[] pages = new long[count];
        long page = -1;
        for (int i = 0; i < count; i++) {
            page += 1 + (random.nextInt(8) == 0 ? random.nextLong(1L << 40) : random.nextInt(4));
            pages[i] = page;
        }
        String key = "(dev=" + random.nextInt(100) + ",ino=" + random.nextInt(1_000_000) + ")";
        return new ResidentProfile(1 << random.nextInt(9, 17), page + 1 + random.nextInt(10), key, pages);
    }

    private static byte[] damage(SplittableRandom random, byte[] bytes) {
        byte[] damaged;
        switch (random.nextInt(5)) {
            case 0 -> damaged = Arrays.copyOf(bytes, random.nextInt(bytes.length + 1)); // truncated
            case 1 -> { // bytes flipped
                damaged = bytes.clone();
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    damaged[random.nextInt(damaged.length)] ^= (byte) (1 + random.nextInt(255));
                }
            }
            case 2 -> { // a header field set to an extreme value
                damaged = bytes.clone();
                int field = 8 + 4 * random.nextInt(6); // version, page size, page count (2 ints), key length, count
                int value = switch (random.nextInt(4)) {
                    case 0 -> Integer.MAX_VALUE;
                    case 1 -> Integer.MIN_VALUE;
                    case 2 -> -1;
                    default -> 0;
                };
                ByteBuffer.wrap(damaged).putInt(Math.min(field, damaged.length - 4), value);
            }
            case 3 -> { // random bytes after a valid header
                damaged = bytes.clone();
                for (int i = 28 + random.nextInt(Math.max(1, damaged.length - 28)); i < damaged.length; i++) {
                    damaged[i] = (byte) random.nextInt(256);
                }
            }
            default -> { // a splice: bytes repeated or cut out of the middle
                int from = random.nextInt(bytes.length);
                int to = from + random.nextInt(bytes.length - from + 1);
                damaged = random.nextBoolean()
                    ? concat(Arrays.copyOf(bytes, to), Arrays.copyOfRange(bytes, from, bytes.length))
                    : concat(Arrays.copyOf(bytes, from), Arrays.copyOfRange(bytes, to, bytes.length));
            }
        }
        if (random.nextBoolean() && damaged.length >= 8) {
            CRC32 crc = new CRC32(); // sealed again: the parser, not the checksum, has to refuse it
            crc.update(damaged, 0, damaged.length - 8);
            ByteBuffer.wrap(damaged, damaged.length - 8, 8).putLong(crc.getValue());
        }
        return damaged;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, 64); i++) {
            s.append(String.format("%02x", bytes[i]));
        }
        return bytes.length > 64 ? s + "..." : s.toString();
    }
}
