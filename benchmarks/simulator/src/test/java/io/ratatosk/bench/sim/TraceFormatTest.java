package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TraceFormatTest {
    /** Every one of {@code paths} is detected as {@code expected} (empty: as no trace). */
    private static void assertDetected(Optional<TraceFormat> expected, String... paths) {
        for (String path : paths) {
            assertEquals(expected, TraceFormat.detect(Path.of(path)), path);
        }
    }

    private static void assertDetected(TraceFormat expected, String... paths) {
        assertDetected(Optional.of(expected), paths);
    }

    @Test
    void detectsEachPublicTraceFamilyFromItsPath() {
        assertDetected(TraceFormat.LIRS, "traces/lirs/cs.trace.gz");
        assertDetected(TraceFormat.ARC, "traces/arc/OLTP.lis.zst");
        assertDetected(TraceFormat.CACHE2K, "traces/cache2k/orm-busy.trace.xz");
        assertDetected(TraceFormat.CLOUDPHYSICS, "traces/cloudphysics/w106.trace.xz");
        assertDetected(TraceFormat.CORDA, "traces/corda/trace_vaultservice.gz");
        assertDetected(TraceFormat.SCARAB, "traces/scarab/recs.trace.xz");
        assertDetected(TraceFormat.PAGETRACE, "out/ldbc.pagetrace", "out/ldbc.pagetrace.gz");
    }

    @Test
    void theAnchorsFlatLayoutIsDetectedByName() {
        // ../shared/anchors names every trace flat under ../traces/: the 64-bit scarab trace must not be read as 32-bit keys.
        assertDetected(TraceFormat.SCARAB, "traces/scarab-recs.trace.xz", "traces/cache2k/Scarab-Recs.trace.xz");
        assertDetected(TraceFormat.CACHE2K, "traces/web07.trace.xz", "traces/orm-night.trace.xz");
        assertDetected(TraceFormat.CORDA, "traces/trace_vaultservice.gz");
    }

    @Test
    void gzipOutsideACordaFolderIsLirsOnlyWithTheTraceSuffix() {
        assertDetected(TraceFormat.CORDA, "x/vault.gz", "corda/loop.trace.gz");
        assertDetected(TraceFormat.LIRS, "x/loop.trace.gz");
    }

    /** The compression suffix is looked past: the bytes say how they are compressed. */
    @Test
    void anyCompressionSuffixOrNoneIsLookedPast() {
        assertDetected(TraceFormat.ARC, "traces/arc/DS1.lis", "x/S3.lis.gz", "x/P8.lis.xz", "x/P8.LIS.BZ2");
        assertDetected(TraceFormat.PAGETRACE, "out/ldbc.pagetrace.zst");
        assertDetected(TraceFormat.LIRS, "traces/lirs/cs.trace", "traces/lirs/cs.trace.zst");
        assertDetected(TraceFormat.CACHE2K, "traces/cache2k/orm-busy.trace");
        assertDetected(TraceFormat.SCARAB, "traces/scarab-recs.trace.bz2");
    }

    @Test
    void theNearestFormatFolderDecides() {
        assertDetected(TraceFormat.LIRS, "cache2k/copies/lirs/cs.trace.gz");
        assertDetected(TraceFormat.CACHE2K, "lirs/copies/cache2k/web07.trace.gz");
    }

    @Test
    void aTraceWhoseNameAndFolderSayNothingIsLeftToFormat() {
        assertDetected(Optional.empty(), "x/plain.trace", "x/keys.trace.zst", "x/keys.xz");
    }

    @Test
    void filesThatAreNotTracesAreNotDetected() {
        assertDetected(Optional.empty(), "traces/lirs/README.orig", "traces/cache2k/LICENSE.txt", "traces/arc/README.orig.md");
        // read as corda keys before, also in --trace-dir: a tar file of 1,280 "requests", a CSV of one
        assertDetected(Optional.empty(), "tg/backup.tar.gz", "tg/results.csv.gz", "corda/notes.txt.gz");
    }

    @Test
    void unknownFormatIsRefusedWithTheListOfValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TraceFormat.byId("parquet"));
        assertTrue(e.getMessage().contains("parquet"), e.getMessage());
        for (TraceFormat f : TraceFormat.values()) {
            assertTrue(e.getMessage().contains(f.id()), () -> "missing " + f.id() + ": " + e.getMessage());
        }
    }

    @Test
    void formatIdsAreCaseInsensitive() {
        assertEquals(TraceFormat.ARC, TraceFormat.byId("ARC"));
    }
}
