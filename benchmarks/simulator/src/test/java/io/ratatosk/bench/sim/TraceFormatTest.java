package io.ratatosk.bench.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TraceFormatTest {
    private static Optional<TraceFormat> detect(String path) {
        return TraceFormat.detect(Path.of(path));
    }

    @Test
    void detectsEachPublicTraceFamilyFromItsPath() {
        assertEquals(Optional.of(TraceFormat.LIRS), detect("traces/lirs/cs.trace.gz"));
        assertEquals(Optional.of(TraceFormat.ARC), detect("traces/arc/OLTP.lis.zst"));
        assertEquals(Optional.of(TraceFormat.CACHE2K), detect("traces/cache2k/orm-busy.trace.xz"));
        assertEquals(Optional.of(TraceFormat.CLOUDPHYSICS), detect("traces/cloudphysics/w106.trace.xz"));
        assertEquals(Optional.of(TraceFormat.CORDA), detect("traces/corda/trace_vaultservice.gz"));
        assertEquals(Optional.of(TraceFormat.SCARAB), detect("traces/scarab/recs.trace.xz"));
        assertEquals(Optional.of(TraceFormat.PAGETRACE), detect("out/ldbc.pagetrace"));
        assertEquals(Optional.of(TraceFormat.PAGETRACE), detect("out/ldbc.pagetrace.gz"));
    }

    @Test
    void theAnchorsFlatLayoutIsDetectedByName() {
        // ../shared/anchors names every trace flat under ../traces/: the 64-bit scarab trace must not be read as 32-bit keys.
        assertEquals(Optional.of(TraceFormat.SCARAB), detect("traces/scarab-recs.trace.xz"));
        assertEquals(Optional.of(TraceFormat.SCARAB), detect("traces/cache2k/Scarab-Recs.trace.xz"));
        assertEquals(Optional.of(TraceFormat.CACHE2K), detect("traces/web07.trace.xz"));
        assertEquals(Optional.of(TraceFormat.CACHE2K), detect("traces/orm-night.trace.xz"));
        assertEquals(Optional.of(TraceFormat.CORDA), detect("traces/trace_vaultservice.gz"));
    }

    @Test
    void gzipOutsideACordaFolderIsLirsOnlyWithTheTraceSuffix() {
        assertEquals(Optional.of(TraceFormat.CORDA), detect("x/vault.gz"));
        assertEquals(Optional.of(TraceFormat.LIRS), detect("x/loop.trace.gz"));
        assertEquals(Optional.of(TraceFormat.CORDA), detect("corda/loop.trace.gz"));
    }

    /** The compression suffix is looked past: the bytes say how they are compressed. */
    @Test
    void anyCompressionSuffixOrNoneIsLookedPast() {
        assertEquals(Optional.of(TraceFormat.ARC), detect("traces/arc/DS1.lis"));
        assertEquals(Optional.of(TraceFormat.ARC), detect("x/S3.lis.gz"));
        assertEquals(Optional.of(TraceFormat.ARC), detect("x/P8.lis.xz"));
        assertEquals(Optional.of(TraceFormat.ARC), detect("x/P8.LIS.BZ2"));
        assertEquals(Optional.of(TraceFormat.PAGETRACE), detect("out/ldbc.pagetrace.zst"));
        assertEquals(Optional.of(TraceFormat.LIRS), detect("traces/lirs/cs.trace"));
        assertEquals(Optional.of(TraceFormat.LIRS), detect("traces/lirs/cs.trace.zst"));
        assertEquals(Optional.of(TraceFormat.CACHE2K), detect("traces/cache2k/orm-busy.trace"));
        assertEquals(Optional.of(TraceFormat.SCARAB), detect("traces/scarab-recs.trace.bz2"));
    }

    @Test
    void theNearestFormatFolderDecides() {
        assertEquals(Optional.of(TraceFormat.LIRS), detect("cache2k/copies/lirs/cs.trace.gz"));
        assertEquals(Optional.of(TraceFormat.CACHE2K), detect("lirs/copies/cache2k/web07.trace.gz"));
    }

    @Test
    void aTraceWhoseNameAndFolderSayNothingIsLeftToFormat() {
        assertEquals(Optional.empty(), detect("x/plain.trace"));
        assertEquals(Optional.empty(), detect("x/keys.trace.zst"));
        assertEquals(Optional.empty(), detect("x/keys.xz"));
    }

    @Test
    void filesThatAreNotTracesAreNotDetected() {
        assertEquals(Optional.empty(), detect("traces/lirs/README.orig"));
        assertEquals(Optional.empty(), detect("traces/cache2k/LICENSE.txt"));
        assertEquals(Optional.empty(), detect("traces/arc/README.orig.md"));
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
